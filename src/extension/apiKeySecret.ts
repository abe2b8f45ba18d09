/** The SecretStorage key of the Anthropic API key (no `vscode` import, so code the unit tier loads can name it). */
export const API_KEY_SECRET = 'dreams.anthropic.apiKey';
