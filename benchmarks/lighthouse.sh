#!/usr/bin/env bash
# Lighthouse mobile performance of the home, match (viewer) and referee pages, against a
# server you started (make serve, or gunicorn): benchmarks/lighthouse.sh http://127.0.0.1:8000 /v/CODE
# Needs node and npm; Lighthouse is installed into a temporary folder, never at run time of the app.
set -euo pipefail
base=${1:?base URL}; match=${2:?match path, e.g. /v/ABCDEFGH}
dir=$(mktemp -d)
(cd "$dir" && npm install --silent --no-audit --no-fund lighthouse@12 >/dev/null)
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for path in / "$match" /referee; do
  "$dir/node_modules/.bin/lighthouse" "$base$path" --only-categories=performance --form-factor=mobile \
    --output=json --output-path="$dir/report.json" --quiet --chrome-flags="$flags" >/dev/null 2>&1
  node -e "const r=require('$dir/report.json'), a=r.audits;
    console.log('$path', 'performance', Math.round(r.categories.performance.score*100),
      'FCP', a['first-contentful-paint'].displayValue, 'LCP', a['largest-contentful-paint'].displayValue,
      'TBT', a['total-blocking-time'].displayValue, 'CLS', a['cumulative-layout-shift'].displayValue)"
done
rm -rf "$dir"
