"""``tarot serve``'s front page: take a name, play today's deal, see the day's leaderboard.

One self-contained page (its script and style inline, allowed by their hashes in the
Content Security Policy: nothing else runs, nothing is loaded, it talks to its own server
only). The token the server gives for a name is kept in the browser's ``localStorage`` and
sent in the ``Authorization`` header, never in an address or a cookie. Every text the
page shows from the server is set as text (``textContent``), never as HTML.

>>> html, policy = page("en")
>>> html.startswith("<!doctype html>"), "connect-src 'self'" in policy
(True, True)
"""

from __future__ import annotations

import base64
import hashlib
from typing import Final

from ..html.escape import json_script, text
from ..i18n import Msg, render

__all__ = ["page"]

_STYLE: Final = (
    "body{font-family:system-ui,sans-serif;max-width:40rem;margin:1rem auto;padding:0 1rem;"
    "line-height:1.5}"
    "button,input{font:inherit;padding:.4rem .8rem}"
    "table{border-collapse:collapse;width:100%}"
    "td,th{border-bottom:1px solid #ccc;padding:.2rem .4rem;text-align:left}"
    ".is-hidden{display:none}"
)

_SCRIPT: Final = """(function () {
  "use strict";
  var words = JSON.parse(document.getElementById("lobby-words").textContent);
  var say = document.getElementById("lobby-say");
  var nameForm = document.getElementById("lobby-name");
  var playBox = document.getElementById("lobby-play");
  function token() {
    try { return window.localStorage.getItem("tarot-token"); } catch (e) { return null; }
  }
  function call(method, url, body) {
    var headers = {};
    var t = token();
    if (t) { headers.Authorization = "Bearer " + t; }
    var lang = document.documentElement.lang;
    if (lang) { headers["Accept-Language"] = lang; }
    if (body !== undefined) { headers["Content-Type"] = "application/json"; }
    return fetch(url, { method: method, headers: headers, credentials: "same-origin",
                        body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (data) {
        return { status: r.status, data: data }; }); });
  }
  function refusedWords(data) {
    var no = data && data.refused;
    if (!no) { return words.failed; }
    return no.message + (no.expected ? " (" + no.expected + ")" : "");
  }
  function show() {
    var has = !!token();
    nameForm.classList.toggle("is-hidden", has);
    playBox.classList.toggle("is-hidden", !has);
  }
  nameForm.addEventListener("submit", function (e) {
    e.preventDefault();
    var name = document.getElementById("lobby-name-input").value;
    call("POST", "/api/players", { name: name }).then(function (r) {
      if (r.status !== 201) { say.textContent = refusedWords(r.data); return; }
      window.localStorage.setItem("tarot-token", r.data.token);
      say.textContent = words.welcome + " " + r.data.name;
      show();
    }).catch(function () { say.textContent = words.failed; });
  });
  document.getElementById("lobby-start").addEventListener("click", function () {
    call("POST", "/api/daily").then(function (r) {
      if (r.status !== 200 && r.status !== 201) {
        say.textContent = refusedWords(r.data);
        return;
      }
      window.location.assign("/play/" + encodeURIComponent(r.data.game));
    }).catch(function () { say.textContent = words.failed; });
  });
  call("GET", "/api/leaderboard/day").then(function (r) {
    var body = document.getElementById("lobby-board");
    (r.data.rows || []).forEach(function (row) {
      var tr = document.createElement("tr");
      [row.rank, row.player, row.percent + " %", row.score].forEach(function (v) {
        var td = document.createElement("td");
        td.textContent = String(v);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  });
  show();
}());
"""


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def page(lang: str) -> tuple[str, str]:
    """The front page in ``lang``, and its Content Security Policy."""
    def w(message: Msg) -> str:
        return text(render(message, lang))

    words = {"welcome": render(Msg("Welcome,"), lang),
             "failed": render(Msg("The server could not be reached: try again."), lang)}
    data = json_script(words)
    policy = ("default-src 'none'; script-src " + _hash(_SCRIPT) + "; style-src "
              + _hash(_STYLE) + "; connect-src 'self'; img-src 'self'; form-action 'none';"
              " base-uri 'none'; frame-ancestors 'none'")
    html = (
        f'<!doctype html>\n<html lang="{text(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{w(Msg('Tarot: the daily game'))}</title>\n"
        f"<style>{_STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n<h1>{w(Msg('Tarot: the daily game'))}</h1>\n"
        f"<p>{w(Msg('One deal a day, the same for everyone, against the bots.'))}</p>\n"
        '<form id="lobby-name">\n'
        f'<label for="lobby-name-input">{w(Msg("Your name"))}</label>\n'
        '<input id="lobby-name-input" name="name" maxlength="24" required'
        ' autocomplete="nickname">\n'
        f'<button type="submit">{w(Msg("Take this name"))}</button>\n</form>\n'
        f'<div id="lobby-play" class="is-hidden"><button type="button" id="lobby-start">'
        f"{w(Msg('Play the deal of the day'))}</button></div>\n"
        '<p id="lobby-say" role="status"></p>\n'
        f"<h2>{w(Msg('Today'))}</h2>\n<table><thead><tr><th>{w(Msg('Rank'))}</th>"
        f"<th>{w(Msg('Player'))}</th><th>{w(Msg('Matchpoints'))}</th>"
        f"<th>{w(Msg('Score'))}</th></tr></thead>"
        '<tbody id="lobby-board"></tbody></table>\n</main>\n'
        f'<script type="application/json" id="lobby-words">{data}</script>\n'
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )
    return html, policy
