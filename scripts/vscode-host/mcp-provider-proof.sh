#!/usr/bin/env bash
# The extension's MCP server registration proved on a VS Code that starts it (1.101+): installs
# code-server 4.103.2 (VS Code 1.103.2) with the same recipe as the test host, into a scratch
# folder (not .vscode-test/), then runs the vscode tier's registration and activation tests there.
# It runs on this project's Node 20 although code-server 4.103 declares Node 22.
# Usage: scripts/vscode-host/mcp-provider-proof.sh [PREFIX]   (default /tmp/dreams-code-server-4.103.2)
# Cost: about 8 min to install the first time (native modules built from source), then ~40 s.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PROJECT=$(cd "$HERE/../.." && pwd)
PREFIX=${1:-/tmp/dreams-code-server-4.103.2}
CS_VERSION=4.103.2 bash "$HERE/install-code-server.sh" "$PREFIX"
cd "$PROJECT"
DREAMS_CODE_SERVER_DIR="$PREFIX" DREAMS_EXPECT_VSCODE_VERSION=1.103.2 \
  DREAMS_TEST_GREP="${DREAMS_TEST_GREP:-registered with VS Code|activates and reports}" node scripts/test.mjs vscode
