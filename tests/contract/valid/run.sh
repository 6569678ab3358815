#!/bin/sh
# Stand-in entrypoint for the valid/ and invalid/ example fixtures.
mkdir -p out && printf %s "{\"ok\": true}" > out/result.json
echo ok
