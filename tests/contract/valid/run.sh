#!/bin/sh
# Stand-in entrypoint for the valid/ and invalid/ example fixtures.
echo ok
