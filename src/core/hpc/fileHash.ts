import crypto from 'node:crypto';
import fs from 'node:fs';

/** sha256 (hex) of a file's bytes, streamed so large outputs do not sit in memory. */
export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = crypto.createHash('sha256');
    fs.createReadStream(file)
      .on('data', (d) => h.update(d))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

export const sha256Text = (text: string | Uint8Array): string => crypto.createHash('sha256').update(text).digest('hex');
