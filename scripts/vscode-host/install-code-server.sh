#!/usr/bin/env bash
# Install the real VS Code the vscode and e2e test tiers run in: code-server (VS Code
# 1.100.3 server + web workbench) from the npm registry, on a machine whose only network
# is the npm registry and Debian's archive. code-server's own postinstall downloads
# ripgrep from GitHub, so scripts are skipped and its native modules are built here.
#
# Usage: scripts/vscode-host/install-code-server.sh [PREFIX]
#   PREFIX   default: <project>/.vscode-test/code-server
# Env:     CS_VERSION (4.100.3; 4.103.2 also installs and runs on Node 20 though it declares Node 22), SKIP_APT=1, NPM_CACHE=dir
# Result:  node "$PREFIX/node_modules/code-server/out/node/entry.js" --auth none ...
# Idempotent: exits at once when that version is installed and its native modules load.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PROJECT=$(cd "$HERE/../.." && pwd)
PREFIX=${1:-$PROJECT/.vscode-test/code-server}
CS_VERSION=${CS_VERSION:-4.100.3}
t0=$(date +%s); step() { echo "[vscode-host $(( $(date +%s) - t0 ))s] $*"; }
CS=$PREFIX/node_modules/code-server
VS=$CS/lib/vscode

smoke() {
  [ -f "$CS/package.json" ] && [ -f "$PREFIX/.installed-$CS_VERSION" ] || return 1
  (cd "$VS" && node -e '
    const r = require("module").createRequire(process.cwd() + "/x.js");
    for (const m of ["kerberos","node-pty","@vscode/spdlog","native-watchdog","@vscode/deviceid","@parcel/watcher"]) r(m);
    require("module").createRequire(process.argv[1] + "/x.js")("argon2");' "$CS") >/dev/null 2>&1
}
if smoke; then step "code-server $CS_VERSION already installed in $PREFIX"; exit 0; fi

[ "$(node -p 'process.versions.node.split(".")[0]')" = 20 ] ||
  { echo "code-server $CS_VERSION needs Node 20 (this is $(node -v)). Install Node 20 and run again." >&2; exit 1; }

need=()
command -v rg >/dev/null || need+=(ripgrep)
command -v chromium >/dev/null || need+=(chromium)
command -v make >/dev/null || need+=(make)
command -v g++ >/dev/null || need+=(g++)
command -v pkg-config >/dev/null || need+=(pkg-config)
[ -f /usr/include/krb5.h ] || [ -f /usr/include/krb5/krb5.h ] || need+=(libkrb5-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "${SKIP_APT:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
    echo "missing system packages: ${need[*]}" >&2
    echo "install them with: sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
    exit 1
  fi
  step "apt-get install ${need[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi

# node-gyp must build against local headers; otherwise it downloads them from nodejs.org.
if [ -z "${npm_config_nodedir:-}" ]; then
  for d in /usr /usr/local "$(dirname "$(dirname "$(command -v node)")")"; do
    [ -f "$d/include/node/node.h" ] && { export npm_config_nodedir=$d; break; }
  done
fi
[ -n "${npm_config_nodedir:-}" ] || { echo "no Node headers (include/node/node.h) found; install Debian's nodejs headers (libnode-dev) or set npm_config_nodedir" >&2; exit 1; }
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
[ -n "${NPM_CACHE:-}" ] && export npm_config_cache=$NPM_CACHE
NODE_GYP="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
if [ -f "$NODE_GYP" ]; then gyp() { node "$NODE_GYP" "$@"; }; else gyp() { npx --yes node-gyp "$@"; }; fi

mkdir -p "$PREFIX"; cd "$PREFIX"
[ -f package.json ] || echo '{"name":"dreams-vscode-test-host","private":true}' > package.json
step "npm install --ignore-scripts code-server@$CS_VERSION"
npm install --ignore-scripts --no-package-lock "code-server@$CS_VERSION" >"$PREFIX/npm-install.log" 2>&1 ||
  { tail -30 "$PREFIX/npm-install.log"; exit 1; }

step "argon2 (prebuilt download fails offline; builds from source)"
(cd node_modules/argon2 && { [ -x ../.bin/node-pre-gyp ] && ../.bin/node-pre-gyp install --fallback-to-build ||
   npx --yes @mapbox/node-pre-gyp install --fallback-to-build; } >"$PREFIX/build-argon2.log" 2>&1) ||
  { tail -30 "$PREFIX/build-argon2.log"; exit 1; }

step "lib/vscode: npm install --omit=dev --ignore-scripts"
cd "$VS"
npm install --omit=dev --ignore-scripts >"$PREFIX/npm-vscode.log" 2>&1 || { tail -30 "$PREFIX/npm-vscode.log"; exit 1; }
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
for m in kerberos node-pty @vscode/spdlog native-watchdog @vscode/deviceid @parcel/watcher; do
  if [ "$m" = @parcel/watcher ] && [ -d node_modules/@parcel/watcher-linux-x64-glibc ]; then continue; fi
  step "node-gyp rebuild $m"
  (cd "node_modules/$m" && gyp rebuild >"$PREFIX/build-${m//\//_}.log" 2>&1) ||
    { tail -30 "$PREFIX/build-${m//\//_}.log"; exit 1; }
done
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
step "lib/vscode/extensions: npm install --omit=dev"
(cd extensions && npm install --omit=dev >"$PREFIX/npm-extensions.log" 2>&1) || { tail -30 "$PREFIX/npm-extensions.log"; exit 1; }

touch "$PREFIX/.installed-$CS_VERSION"
smoke || { echo "code-server installed but its native modules do not load; see the build-*.log files in $PREFIX" >&2; exit 1; }
step "done: code-server $(node "$CS/out/node/entry.js" --version | head -1) in $PREFIX ($(du -sh "$PREFIX" | cut -f1))"
