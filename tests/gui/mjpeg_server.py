#!/usr/bin/env python3
"""A network camera for the GUI test (arbitre-gui --self-test DIR --camera-test THIS_SCRIPT).

Serves the JPEG frames of a recording (DIR/0000.jpg, 0001.jpg, ...) as MJPEG over HTTP
(multipart/x-mixed-replace, as IP-camera apps do) on 127.0.0.1, at a pace the live loop's
stability filter can follow: the frames of a settled table (truth.json's "empty" and "placed"
shots) are held FRAME_SECONDS each and their last one repeated, a hand over the table passes
quickly. Then it stops answering mid-game, as a camera unplugged or a phone whose app stopped:
after frame DROP_AFTER - 1 it closes the connection and the listening socket, and waits until
RESUME_FILE exists. Then it listens again on the same port and goes on from where it stopped
(the table as it was for LEAD seconds first, then the following frames) up to frame LAST, and ends (the camera is
lost a second time; the test stops the game).

The stream is real time, and a reader slowed down by a loaded machine may not have seen a
placement settle before the table changes or the frames stop: the last frame of each accepted
placement is sent again and again until SHOWN_FILE (the number of pions the window shows, which
the test writes) reaches that placement's count, for at most HOLD seconds (a window that never
shows it is let go on, and its test fails on the score).

The port is written to PORT_FILE once listening. Nothing is timed by the test: it waits for the
events (camera lost, camera back), creates RESUME_FILE and writes SHOWN_FILE itself.
"""
import argparse
import json
import os
import socket
import sys
import time


def read_truth(frames_dir):
    try:
        with open(os.path.join(frames_dir, "truth.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def placed_pions(truth):
    """{the last frame of an accepted placement's shot: the pions on the board after it}."""
    placed, pions = {}, 0
    for shot in truth.get("shots", []):
        if shot.get("kind") == "placed" and shot.get("verdict") == "accepted":
            pions += 1
            placed[shot["frames"][1]] = pions
    return placed


def frame_pace(truth, count, seconds):
    """How long each frame is shown and how many times it is sent, from truth.json's shots."""
    pace = [(seconds, 1)] * count
    for shot in truth.get("shots", []):
        first, last = shot["frames"]
        for i in range(first, min(last, count - 1) + 1):
            if shot.get("kind") == "hand":
                pace[i] = (seconds / 2, 1)
            else:  # a settled table: the last frame of the shot twice, so it lasts past the filter's 0.8 s
                pace[i] = (seconds, 2 if i == last else 1)
    return pace


class Camera:
    def __init__(self, args):
        self.dir = args.frames
        names = sorted(n for n in os.listdir(self.dir) if n.endswith(".jpg"))
        self.frames = [os.path.join(self.dir, n) for n in names]
        self.last = min(args.last, len(self.frames) - 1)
        truth = read_truth(self.dir)
        self.pace = frame_pace(truth, len(self.frames), args.seconds)
        self.placed = placed_pions(truth)
        self.shown_file = args.shown_file
        self.hold = args.hold
        self.lead = args.lead
        self.port = 0
        self.listener = None

    def listen(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.port = self.listener.getsockname()[1]
        self.listener.listen(4)
        self.listener.settimeout(120)

    def close(self):
        self.listener.close()
        self.listener = None

    def client(self):
        """The next client that asks for the stream, its headers answered."""
        conn, _ = self.listener.accept()
        conn.settimeout(10)
        request = b""
        while b"\r\n\r\n" not in request:
            part = conn.recv(4096)
            if not part:
                break
            request += part
        # A reader slowed down by a loaded machine lets the socket fill and the sends wait: it is
        # slow, not gone (a client gone fails the send at once).
        conn.settimeout(120)
        conn.sendall(b"HTTP/1.0 200 OK\r\nCache-Control: no-cache\r\n"
                     b"Content-Type: multipart/x-mixed-replace; boundary=frame\r\n\r\n")
        return conn

    def send(self, conn, index, times=None, seconds=None):
        with open(self.frames[index], "rb") as f:
            jpeg = f.read()
        pace_seconds, pace_times = self.pace[index]
        for _ in range(pace_times if times is None else times):
            conn.sendall(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg))
            conn.sendall(jpeg + b"\r\n")
            time.sleep(pace_seconds if seconds is None else seconds)

    def shown(self):
        try:
            with open(self.shown_file, encoding="utf-8") as f:
                return int(f.read().strip() or 0)
        except (OSError, ValueError):
            return 0

    def hold_until_shown(self, conn, index):
        """An accepted placement's last frame, again, until the window shows its pions."""
        if index not in self.placed:
            return
        deadline = time.monotonic() + self.hold
        while self.shown() < self.placed[index] and time.monotonic() < deadline:
            self.send(conn, index, times=1)

    def play(self, first, stop, hold=None):
        """Frames first..stop-1 (after `hold`, the table as the last client saw it), to whoever
        connects; a client that goes away (the reader reopening) is replaced by the next one, from
        the same frame."""
        index = first
        while index < stop:
            conn = self.client()
            try:
                # The table as it is, for a while, to a new client: FFmpeg's stream probe reads
                # ahead for seconds when it opens a stream and hands those frames over at once,
                # so a change in them would reach the stability filter too fast to settle (see
                # docs/user-guide.md). Players do wait for the camera to come back.
                lead = index if hold is None else hold
                self.send(conn, lead, times=max(1, round(self.lead / self.pace[lead][0])), seconds=self.pace[lead][0])
                hold = None
                while index < stop:
                    self.send(conn, index)
                    self.hold_until_shown(conn, index)
                    index += 1
            except OSError:
                pass
            finally:
                conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", required=True, help="folder of NNNN.jpg frames (and truth.json)")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--drop-after", type=int, required=True, help="frames served before the drop")
    parser.add_argument("--last", type=int, required=True, help="the last frame served")
    parser.add_argument("--resume-file", required=True, help="answer again once this file exists")
    parser.add_argument("--shown-file", required=True, help="the pions the window shows (written by the test)")
    parser.add_argument("--hold", type=float, default=60.0,
                        help="seconds an accepted placement's last frame is held at most")
    parser.add_argument("--seconds", type=float, default=0.35, help="a settled frame's time on screen")
    parser.add_argument("--lead", type=float, default=8.0,
                        help="seconds a new client is shown the table as it is before it changes")
    args = parser.parse_args()

    camera = Camera(args)
    camera.listen()
    with open(args.port_file + ".part", "w", encoding="utf-8") as f:
        f.write(str(camera.port))
    os.replace(args.port_file + ".part", args.port_file)
    camera.play(0, args.drop_after)
    camera.close()  # the camera stops answering: connections are refused
    print("mjpeg_server: dropped after frame %d, waiting for %s" % (args.drop_after - 1, args.resume_file), flush=True)
    deadline = time.monotonic() + 300
    while not os.path.exists(args.resume_file):
        if time.monotonic() > deadline:
            sys.exit("mjpeg_server: nobody asked the camera back")
        time.sleep(0.1)
    camera.listen()
    print("mjpeg_server: back on port %d" % camera.port, flush=True)
    camera.play(args.drop_after, camera.last + 1, hold=args.drop_after - 1)
    camera.close()
    print("mjpeg_server: served up to frame %d" % camera.last, flush=True)


if __name__ == "__main__":
    main()
