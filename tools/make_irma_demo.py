#!/usr/bin/env python3
"""Makes data/demo/irma-demo.json, the embedded default game record.

A solo game played by the advisor (`arbitre irma play`), into which a few refused tries are
inserted before accepted placements so that the demo shows each kind of refusal. Every try is
found by asking the referee itself (`arbitre irma check`), never written by hand.

    tools/make_irma_demo.py build/release/app/arbitre --seed 2026 > data/demo/irma-demo.json
"""
import argparse
import json
import subprocess
import tempfile

WANTED = ["occupied", "not-adjacent", "repeated-series", "carre", "white-next-to-white",
          "outside-rectangle"]


def verdicts(arbitre, moves):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"moves": moves}, f)
    out = subprocess.run([arbitre, "irma", "check", f.name], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("arbitre")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    seed = args.seed
    while True:  # the first seed from --seed whose game completes the rectangle
        record = json.loads(subprocess.run([args.arbitre, "irma", "play", "--seed", str(seed)],
                                           capture_output=True, text=True, check=True).stdout)
        if "completed" in record["comment"]:
            break
        seed += 1
    moves = record["moves"]
    out, found = [], set()
    for i, move in enumerate(moves):
        if i >= 4 and len(found) < len(WANTED) and "row" in move:
            board = [(m["row"], m["col"]) for m in out]
            rows = [r for r, _ in board]
            cols = [c for _, c in board]
            candidates = [(r, c) for r in range(min(rows) - 3, max(rows) + 4)
                          for c in range(min(cols) - 3, max(cols) + 4)]
            for r, c in candidates:
                attempt = {"colour": move["colour"], "row": r, "col": c}
                result = verdicts(args.arbitre, out + [attempt])["moves"][-1]
                reason = result.get("reason")
                if reason in WANTED and reason not in found:
                    found.add(reason)
                    out.append(attempt)
                    break
        out.append(move)
    game = {"comment": f"Bundled demo: {record['comment']}; refused tries inserted: "
                       f"{', '.join(r for r in WANTED if r in found)}",
            "moves": out}
    print(json.dumps(game, indent=1))


if __name__ == "__main__":
    main()
