#!/usr/bin/env python3
"""Makes the bundled Yams game records from advisor players (`arbitre yams play`), renamed
Anna and Bruno:

    tools/make_yams_demo.py build/release/app/arbitre --seed 3 > data/demo/yams-demo.json
    tools/make_yams_demo.py build/release/app/arbitre --seed 3 --players 1 > data/demo/yams-recording.json

yams-demo.json (two players) is the embedded game the demo plays as scripted observations;
yams-recording.json (one player, half the pictures) is the game rendered as the bundled
recording (tools/make_demo_recordings.sh).
"""
import argparse
import json
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("arbitre")
parser.add_argument("--seed", type=int, default=3)
parser.add_argument("--players", type=int, choices=(1, 2), default=2)
args = parser.parse_args()
record = json.loads(subprocess.run(
    [args.arbitre, "yams", "play", "--players", str(args.players), "--seed", str(args.seed)],
    capture_output=True, text=True, check=True).stdout)
names = {"advisor 1": "Anna", "advisor 2": "Bruno", "advisor": "Anna"}
record["players"] = [names[p] for p in record["players"]]
for turn in record["turns"]:
    turn["player"] = names[turn["player"]]
count = "two advisor players" if args.players == 2 else "one advisor player"
record = {"comment": f"Bundled demo: {count}, dice seed {args.seed}", **record}
print(json.dumps(record, indent=1, ensure_ascii=False))
