// @ts-check
// Friends: whom this box follows and their finds, with who liked what.

import { fmtTime, quoted } from "./format.js";
import { keyedRows, part, rowParts } from "./lists.js";
import { $, button, canWrite, hc, setText, show } from "./model.js";
import { post, why, write } from "./writes.js";

// ---- Friends: whom this box follows and their finds, with who liked what ----------------------
// Read when the screen opens, after a write from it, and when the live stream says a find, a
// like or a follow happened (`friendsChanged`): never on a timer.
export async function loadFriends() {
  const t = hc.friends;
  t.reloads++;
  const token = ++t.token, started = Date.now();
  // As many as asked for (older pages included), up to the daemon's page of 200: one read
  // for every reason, so a change heard while older finds are asked for cannot undo them.
  const limit = Math.min(FEED_MAX, Math.max(FEED_PAGE, t.want));
  const [a, b] = await Promise.all([post("/api/read", { cmd: "following" }), post("/api/read", { cmd: "feed", limit: limit })]);
  // A write since (a like, a follow) makes this answer older than what the page shows.
  if (token !== t.token) return;
  t.asked = true;
  t.readAt = started;
  if (a.status === 200 && a.j && Array.isArray(a.j.following)) { t.following = a.j.following; t.ferror = null; } else t.ferror = why(a.status, a.j, "reading whom you follow").text;
  if (b.status === 200 && b.j && Array.isArray(b.j.items)) { t.items = b.j.items; t.more = b.j.items.length === limit && limit < FEED_MAX; t.error = null; }
  else t.error = why(b.status, b.j, "reading the feed").text;
  renderFriends();
}
const FEED_PAGE = 50, FEED_MAX = 200;

// The daemon's FEED, LIKE, LIKE_RECEIVED or FOLLOWING_CHANGED, as the live stream tells it
// (only the class: the lists are read with this page's own access). A burst (a replay after a
// reconnection, a friend's backlog) is read once, a moment after it ends.
export function friendsChanged(cls) {
  const t = hc.friends;
  t.heard = cls;
  if (hc.screen !== "friends") return;    // opening the screen reads it
  clearTimeout(t.soon);
  t.soon = setTimeout(loadFriends, 150);
}

// The next 50 older finds: the one read asks for 50 more.
function olderFinds() {
  const t = hc.friends;
  t.want = Math.min(FEED_MAX, Math.max(FEED_PAGE, t.items.length) + FEED_PAGE);
  loadFriends();
}

const FRIEND_ID = /^[A-Za-z0-9._-]{1,64}\/[A-Za-z0-9._-]{1,64}$/;
function whoBox() { return /** @type {HTMLInputElement} */ ($("fr-who")); }
function author(x) { return x.own ? "This car" : x.author + "/" + x.device; }
// A record is one item per place and person, saying what they think of it now: rated, noted,
// or both (or neither, once they took both back).
function did(x) {
  if (x.kind === "arrived") return " arrived at ";
  const rated = x.rating != null, noted = !!x.note;
  return rated && noted ? " rated and noted " : rated ? " rated " : noted ? " noted " : " took back their rating and note of ";
}
// 0 stars is a rating (the lowest), said in words too: five empty stars alone read as nothing.
function stars(r) { return r == null ? "" : "★".repeat(r) + "☆".repeat(5 - r) + " " + r + " of 5"; }
function findName(x) { return (x.own ? "this car's" : x.author + "/" + x.device + "'s") + " find at " + x.place.name; }

export function renderFriends() {
  const t = hc.friends, can = canWrite(), writer = !!(hc.session && hc.session.writer);
  const who = whoBox().value.trim(), b = button("fr-follow");
  const already = t.following.some((f) => f.who === who);
  show($("fr-add"), writer);
  setText(b, !who ? "Type a friend's USER/DEVICE to follow" : !FRIEND_ID.test(who) ? "USER/DEVICE, such as jane/ute" : already ? "Already following " + who : "Follow " + who);
  b.disabled = !can || !who || !FRIEND_ID.test(who) || already || t.pending.has("follow");
  // A reply fades after a while (as the live screen's does): the lists below say what is so now.
  // It goes at once when lists read after it say otherwise ("Stopped following jane/ute" while
  // another phone has followed her again): the page never shows both.
  const fr = hc.friendResult;
  if (fr && fr.ok && (Date.now() - fr.at > 15000 || (fr.holds && t.readAt > fr.at && !fr.holds()))) hc.friendResult = null;
  const r = hc.friendResult;
  setText($("fr-result"), r ? r.text : "");
  $("fr-result").className = r ? (r.ok ? "ok" : "bad") : "";
  keyedRows("fr-following", t.following, (f) => f.who, (li) => {
    rowParts(li, ["span", "span.sub", "button.unfollow"]);
    part(li, "unfollow").addEventListener("click", () => unfollow(li.dataset.id || ""));
  }, (li, f) => {
    setText(/** @type {HTMLElement} */ (li.firstChild), f.who);
    setText(part(li, "sub"), "following since " + fmtTime(f.since));
    const ub = /** @type {HTMLButtonElement} */ (part(li, "unfollow"));
    show(ub, writer);
    setText(ub, "Unfollow " + f.who);
    ub.disabled = !can || t.pending.has("follow");
  });
  setText($("fr-fhead"), t.ferror || (!t.asked ? "reading…" : !t.following.length ? "You follow nobody yet." : "You follow " + t.following.length + (t.following.length === 1 ? " car" : " cars")));
  $("fr-fhead").className = t.ferror ? "bad" : "";
  keyedRows("fr-feed", t.items, (x) => x.id, (li) => {
    rowParts(li, ["span", "span.sub", "span.likes", "button.like"]);
    part(li, "like").addEventListener("click", () => { const x = t.items.find((i) => i.id === li.dataset.id); if (x) like(x); });
  }, (li, x) => {
    setText(/** @type {HTMLElement} */ (li.firstChild), author(x) + did(x) + x.place.name);
    setText(part(li, "sub"), [fmtTime(x.time), stars(x.rating),
      x.note ? quoted(x.note) : "", x.note && x.note_words ? x.note_words + (x.note_words === 1 ? " word" : " words") : ""].filter(Boolean).join(" · "));
    const likers = x.likers || [];
    setText(part(li, "likes"), !x.likes ? "No likes yet" : "Liked by " + likers.join(", ") + (x.likes > likers.length ? " and " + (x.likes - likers.length) + " more" : ""));
    const lb = /** @type {HTMLButtonElement} */ (part(li, "like"));
    // A car's own finds get their likes from friends; there is nothing here to press.
    show(lb, writer && !x.own);
    setText(lb, (x.liked_by_me ? "Take back your like of " : "Like ") + findName(x));
    lb.disabled = !can || t.pending.has(x.id);
  });
  const ul = $("fr-feed");
  let older = /** @type {HTMLButtonElement | null} */ (ul.querySelector(".more"));
  if (t.more && !older) {
    older = document.createElement("button");
    older.type = "button";
    older.className = "more";
    older.addEventListener("click", olderFinds);
  }
  if (older) { if (t.more) { setText(older, "Show older finds"); ul.appendChild(older); } else older.remove(); }
  setText($("fr-head"), t.error || (!t.asked ? "" : !t.items.length ? "No finds in the feed yet." : "Finds, newest first"
    + (t.items.length >= FEED_MAX ? " (the newest " + FEED_MAX + ")" : "")));
  $("fr-head").className = t.error ? "bad" : "";
}

// A write from the Friends screen: the item or friend is pending (its button greyed, so a
// second tap sends nothing) until the daemon answers; then the feed is read afresh.
// `holds` says whether the lists as last read still agree with the reply's words.
function friendWrite(key, request, what, done, holds) {
  const t = hc.friends;
  t.pending.add(key);
  t.token++;
  return write(request, what, done, (res) => { if (res.ok && res.cause === "write") res.holds = holds; hc.friendResult = res; }).then((r) => {
    t.pending.delete(key);
    loadFriends();
    return r;
  });
}
function follow() {
  const who = whoBox().value.trim();
  if (!FRIEND_ID.test(who)) return;
  friendWrite("follow", { cmd: "follow", who: who }, "following " + who, (r) => (r.new ? "Now following " + who + "." : "Already following " + who + "."),
    () => hc.friends.following.some((f) => f.who === who))
    .then((r) => { if (r && whoBox().value.trim() === who) whoBox().value = ""; });
}
function unfollow(who) {
  friendWrite("follow", { cmd: "unfollow", who: who }, "unfollowing " + who, (r) => (r.new ? "Stopped following " + who + "." : "You were not following " + who + "."),
    () => !hc.friends.following.some((f) => f.who === who));
}
function like(x) {
  const name = findName(x), on = !x.liked_by_me;
  friendWrite(x.id, { cmd: on ? "like" : "unlike", item: x.id }, (on ? "liking " : "taking back your like of ") + name,
    (r) => (on ? (r.new ? "Liked " : "You already liked ") + name + "." : (r.new ? "Took back your like of " : "You had not liked ") + name + "."),
    () => hc.friends.items.some((i) => i.id === x.id && !!i.liked_by_me === on));
}

/** The follow box and button. */
export function setupFriends() {
  $("fr-who").addEventListener("input", renderFriends);
  $("fr-follow").addEventListener("click", follow);
}
