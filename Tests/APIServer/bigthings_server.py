#!/usr/bin/env python3
"""A reference implementation of the Big Things web API (api/openapi.yaml) for tests.

Python 3 standard library only. In-memory state; binds 127.0.0.1 and prints the chosen port
as the first line on stdout ("PORT 43121"), so tests can pass --port 0.

    python3 bigthings_server.py --port 0 [--catalogue FILE] [--token SECRET]

The contract:
  GET  /bigthings                      200 {"updated", "things"} with ETag; If-None-Match -> 304
  POST /bigthings/{id}/ratings         Idempotency-Key required; 201 {"id","rating","votes"};
                                       the same key again -> 200 with the same body, counted once
  POST /bigthings/submissions          Idempotency-Key required; 201 {"id","status"}; same key -> 200
  errors                               {"error": message}; 429 carries Retry-After

Switches, through the control endpoint (JSON bodies):
  POST /_control/faults   {"faults": [FAULT, ...]}  appended to a queue; each API request
                          (not /_control) takes the first matching fault, whose "count" drops by one.
      FAULT = {"action": "status"|"hang"|"drop"|"malformed"|"redirect"|"oversized"|"body",
               "when": "before"|"after",   # before: the request is not processed;
                                           # after: processed (counted), then the reply misbehaves
               "count": 1, "status": 500, "retry_after": "1", "error": "message",
               "method": "GET"|"POST", "path": "ratings"|"submissions"|"bigthings" (substring)}
      hang: holds the request until POST /_control/release (or 120 s), then drops the connection.
      redirect: 302 (or "status") to "location" (another host, to test that the token stays home).
      oversized: a 200 (or "status") JSON body of "size" bytes; "chunked": true sends it with
                 Transfer-Encoding: chunked (no Content-Length), so only counting while reading
                 can refuse it.
      body: with "when": "after", the processed status with "body" (any JSON) as the reply,
            e.g. a rating reply whose numbers are out of range.
  POST /_control/release  releases every hung request
  POST /_control/clear    drops every queued fault
  POST /_control/catalogue {"things": [...], "updated": ...} replaces the catalogue (new ETag)
  POST /_control/remove   {"ids": [...]} removes things from the catalogue (new ETag)
  GET  /_control/state    counters: requests by kind, ratings counted (once per key), votes per
                          thing, submissions with the photo's size and sha256, hung requests now;
                          "requests" lists [method, path, key, outcome, host header, bearer sent]
"""

import argparse
import base64
import hashlib
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

LOCK = threading.Lock()
RELEASE = threading.Condition(LOCK)


class State:
    def __init__(self, things, token):
        self.token = token
        self.set_catalogue(things, None)
        self.faults = []
        self.ratings_by_key = {}       # key -> (request body, reply body)
        self.submissions_by_key = {}   # key -> (request body, reply body)
        self.submissions = []          # accepted submissions (once per key)
        self.rating_posts = 0          # every POST to /ratings, retries included
        self.submission_posts = 0
        self.catalogue_gets = {"200": 0, "304": 0}
        self.requests = []             # [method, path, key, outcome]
        self.hanging = 0
        self.release_generation = 0

    def set_catalogue(self, things, updated):
        self.things = {str(t["id"]): dict(t) for t in things}
        self.order = [str(t["id"]) for t in things]
        self.updated = updated or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.bump()

    def bump(self):
        body = json.dumps({"updated": self.updated, "things": [self.things[i] for i in self.order]},
                          sort_keys=True).encode()
        self.catalogue_body = body
        self.etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]

    def take_fault(self, method, path):
        for f in self.faults:
            if f.get("method") and f["method"] != method:
                continue
            if f.get("path") and f["path"] not in path:
                continue
            f["count"] = f.get("count", 1) - 1
            if f["count"] <= 0:
                self.faults.remove(f)
            return f
        return None

    def snapshot(self):
        votes = {i: {"rating": t.get("rating"), "votes": t.get("votes")} for i, t in self.things.items()
                 if t.get("votes")}
        return {
            "ratings_counted": len(self.ratings_by_key),
            "rating_posts": self.rating_posts,
            "submissions_counted": len(self.submissions),
            "submission_posts": self.submission_posts,
            "catalogue_gets": self.catalogue_gets,
            "votes": votes,
            "rating_keys": sorted(self.ratings_by_key),
            "submissions": self.submissions,
            "hanging": self.hanging,
            "faults_left": len(self.faults),
            "etag": self.etag,
            "requests": self.requests,
        }


STATE = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"     # keep-alive, and 100-continue for large bodies
    server_version = "bigthings-reference/1"

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("%s\n" % (fmt % args))

    # -- replies --------------------------------------------------------------------------
    def reply(self, status, obj=None, headers=None, raw=None):
        body = raw if raw is not None else (b"" if obj is None else json.dumps(obj).encode())
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if body or status not in (204, 304):
            self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)
        self.wfile.flush()

    def error(self, status, message, headers=None):
        self.reply(status, {"error": message}, headers)

    def drop(self):
        self.close_connection = True
        try:
            import socket
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def hang(self):
        with LOCK:
            STATE.hanging += 1
            gen = STATE.release_generation
            deadline = time.time() + 120
            while STATE.release_generation == gen and time.time() < deadline:
                RELEASE.wait(timeout=1)
            STATE.hanging -= 1
        self.drop()

    def misbehave(self, fault, processed_reply):
        """Applies a fault; returns True when the request was answered (or dropped) by it."""
        action = fault.get("action", "status")
        if action == "status":
            headers = {}
            if fault.get("retry_after") is not None:
                headers["Retry-After"] = str(fault["retry_after"])
            self.error(fault.get("status", 500), fault.get("error", "injected failure"), headers)
        elif action == "hang":
            self.hang()
        elif action == "drop":
            self.drop()
        elif action == "redirect":
            self.reply(fault.get("status", 302), {"error": "moved"}, {"Location": fault["location"]})
        elif action == "oversized":
            self.oversized(fault.get("status", 200), int(fault.get("size", 2 << 20)), fault.get("chunked", False))
        elif action == "body":
            status = processed_reply[0] if processed_reply else 200
            self.reply(status, raw=json.dumps(fault.get("body")).encode())
        elif action == "malformed":
            status = processed_reply[0] if processed_reply else 200
            self.reply(status, raw=b'{"id": "oops", "rating": ')
        return True

    def oversized(self, status, size, chunked):
        """A JSON string body of `size` bytes, written in 64 KiB pieces."""
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        body = b'"' + b"x" * max(0, size - 2) + b'"'
        try:
            for i in range(0, len(body), 65536):
                piece = body[i:i + 65536]
                if chunked:
                    self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                else:
                    self.wfile.write(piece)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            pass   # the client hung up once it had enough: that is the point
        self.close_connection = True

    # -- requests -------------------------------------------------------------------------
    def body_json(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return raw, (json.loads(raw.decode("utf-8")) if raw else None)
        except (UnicodeDecodeError, json.JSONDecodeError):
            return raw, ValueError("the body is not valid JSON")

    def authorised(self):
        if not STATE.token:
            return True
        if self.headers.get("Authorization") == "Bearer " + STATE.token:
            return True
        self.error(401, "a valid bearer token is required")
        return False

    def do_GET(self):
        path = unquote(self.path.split("?")[0])
        if path == "/_control/state":
            with LOCK:
                return self.reply(200, STATE.snapshot())
        self.api("GET", path, None, None)

    def do_POST(self):
        path = unquote(self.path.split("?")[0])
        raw, body = self.body_json()
        if path.startswith("/_control/"):
            return self.control(path, body)
        self.api("POST", path, raw, body)

    def api(self, method, path, raw, body):
        key = self.headers.get("Idempotency-Key")
        with LOCK:
            fault = STATE.take_fault(method, path)
            STATE.requests.append([method, path, key, (fault or {}).get("action", "ok"),
                                   self.headers.get("Host", ""), bool(self.headers.get("Authorization"))])
        if fault and fault.get("when", "before") == "before":
            return self.misbehave(fault, None)
        if not self.authorised():
            return
        status, obj, headers = self.route(method, path, key, raw, body)
        if fault:   # "after": the request was processed (and counted); the reply goes wrong
            return self.misbehave(fault, (status, obj))
        if status == 304:
            return self.reply(304, None, headers)
        if obj is not None and "__raw__" in obj:
            return self.reply(status, raw=obj["__raw__"], headers=headers)
        self.reply(status, obj, headers)

    def route(self, method, path, key, raw, body):
        parts = [p for p in path.split("/") if p]
        if method == "GET" and parts == ["bigthings"]:
            with LOCK:
                if self.headers.get("If-None-Match") == STATE.etag:
                    STATE.catalogue_gets["304"] += 1
                    return 304, None, {"ETag": STATE.etag}
                STATE.catalogue_gets["200"] += 1
                return 200, {"__raw__": STATE.catalogue_body}, {"ETag": STATE.etag}
        if method == "POST" and len(parts) == 3 and parts[0] == "bigthings" and parts[2] == "ratings":
            return self.rate(parts[1], key, raw, body)
        if method == "POST" and parts == ["bigthings", "submissions"]:
            return self.submit(key, raw, body)
        return 404, {"error": "no such endpoint: %s %s" % (method, path)}, {}

    def rate(self, thing_id, key, raw, body):
        if not key:
            return 400, {"error": "the Idempotency-Key header is required"}, {}
        if isinstance(body, ValueError) or not isinstance(body, dict):
            return 400, {"error": "the body must be a JSON object"}, {}
        with LOCK:
            STATE.rating_posts += 1
            seen = STATE.ratings_by_key.get(key)
            if seen:
                if seen[0] != raw:
                    return 409, {"error": "Idempotency-Key %s was used with a different body" % key}, {}
                return 200, seen[1], {}
            thing = STATE.things.get(thing_id)
            if thing is None:
                return 404, {"error": "no Big Thing has the id %s" % thing_id}, {}
            stars = body.get("stars")
            if not isinstance(stars, int) or isinstance(stars, bool) or not 0 <= stars <= 5:
                return 422, {"error": "stars must be a whole number from 0 to 5"}, {}
            if not isinstance(body.get("rated_at"), str):
                return 422, {"error": "rated_at is required (ISO-8601)"}, {}
            votes = int(thing.get("votes") or 0)
            rating = float(thing.get("rating") or 0)
            new_votes = votes + 1
            new_rating = round((rating * votes + stars) / new_votes, 3)
            thing["votes"], thing["rating"] = new_votes, new_rating
            STATE.bump()
            reply = {"id": thing_id, "rating": new_rating, "votes": new_votes}
            STATE.ratings_by_key[key] = (raw, reply)
            return 201, reply, {}

    def submit(self, key, raw, body):
        if not key:
            return 400, {"error": "the Idempotency-Key header is required"}, {}
        if isinstance(body, ValueError) or not isinstance(body, dict):
            return 400, {"error": "the body must be a JSON object"}, {}
        with LOCK:
            STATE.submission_posts += 1
            seen = STATE.submissions_by_key.get(key)
            if seen:
                if seen[0] != raw:
                    return 409, {"error": "Idempotency-Key %s was used with a different body" % key}, {}
                return 200, seen[1], {}
            if not isinstance(body.get("name"), str) or not body["name"].strip():
                return 422, {"error": "name is required"}, {}
            has_coord = isinstance(body.get("lat"), (int, float)) and isinstance(body.get("lon"), (int, float))
            if not has_coord and not body.get("address"):
                return 422, {"error": "coordinates or an address are required"}, {}
            record = {"key": key, "name": body["name"], "lat": body.get("lat"), "lon": body.get("lon"),
                      "address": body.get("address"), "seen_at": body.get("seen_at"),
                      "submitted_by": body.get("submitted_by")}
            photo = body.get("photo")
            if photo is not None:
                try:
                    data = base64.b64decode(photo["data_base64"], validate=True)
                except Exception:
                    return 400, {"error": "photo.data_base64 is not valid base64"}, {}
                record["photo"] = {"filename": photo.get("filename"), "content_type": photo.get("content_type"),
                                   "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            sid = "sub-" + uuid.uuid4().hex[:12]
            record["id"] = sid
            STATE.submissions.append(record)
            reply = {"id": sid, "status": "received"}
            STATE.submissions_by_key[key] = (raw, reply)
            return 201, reply, {}

    def control(self, path, body):
        body = body if isinstance(body, dict) else {}
        with LOCK:
            if path == "/_control/faults":
                STATE.faults.extend(body.get("faults", []))
            elif path == "/_control/clear":
                STATE.faults = []
            elif path == "/_control/release":
                STATE.release_generation += 1
                RELEASE.notify_all()
            elif path == "/_control/catalogue":
                STATE.set_catalogue(body.get("things", []), body.get("updated"))
            elif path == "/_control/remove":
                for i in body.get("ids", []):
                    STATE.things.pop(str(i), None)
                    if str(i) in STATE.order:
                        STATE.order.remove(str(i))
                STATE.bump()
            else:
                return self.error(404, "no such control endpoint: %s" % path)
            snap = STATE.snapshot()
        self.reply(200, snap)


DEFAULT_THINGS = [
    {"id": "api:banana", "name": "Big Banana", "town": "Coffs Harbour", "state": "NSW",
     "lat": -30.2963, "lon": 153.1135, "description": "A banana.", "photo_url": None,
     "rating": 4.0, "votes": 10, "tags": ["fruit"], "year": 1964, "status": "standing"},
    {"id": "api:merino", "name": "Big Merino", "town": "Goulburn", "state": "NSW",
     "lat": -34.7547, "lon": 149.6943, "description": "A ram.", "photo_url": None,
     "rating": 3.5, "votes": 4, "tags": ["animal"], "year": 1985, "status": "standing"},
    {"id": "api:prawn", "name": "Big Prawn", "town": "Ballina", "state": "NSW",
     "lat": -28.8667, "lon": 153.5667, "description": "A prawn.", "photo_url": None,
     "rating": None, "votes": None, "tags": [], "year": 1989, "status": "standing"},
]


def main():
    global STATE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--catalogue", help="a JSON file with a \"things\" array (default: three NSW things)")
    ap.add_argument("--token", help="require Authorization: Bearer TOKEN")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    things = DEFAULT_THINGS
    if args.catalogue:
        with open(args.catalogue, encoding="utf-8") as f:
            things = json.load(f)["things"]
    STATE = State(things, args.token)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.verbose = args.verbose
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
