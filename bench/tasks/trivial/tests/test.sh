#!/bin/bash
# Reward 1 when the agent left /app/answer.txt containing "done", else 0.
mkdir -p /logs/verifier
if [ "$(cat /app/answer.txt 2>/dev/null)" = "done" ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
