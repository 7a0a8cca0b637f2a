#!/usr/bin/env python3
"""Makes data/demo/yams-demo.json, the embedded Yams game: two advisor players
(`arbitre yams play --players 2`), renamed Anna and Bruno.

    tools/make_yams_demo.py build/release/app/arbitre --seed 3 > data/demo/yams-demo.json
"""
import argparse
import json
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("arbitre")
parser.add_argument("--seed", type=int, default=3)
args = parser.parse_args()
record = json.loads(subprocess.run(
    [args.arbitre, "yams", "play", "--players", "2", "--seed", str(args.seed)],
    capture_output=True, text=True, check=True).stdout)
names = {"advisor 1": "Anna", "advisor 2": "Bruno"}
record["players"] = [names[p] for p in record["players"]]
for turn in record["turns"]:
    turn["player"] = names[turn["player"]]
record = {"comment": f"Bundled demo: two advisor players, dice seed {args.seed}", **record}
print(json.dumps(record, indent=1, ensure_ascii=False))
