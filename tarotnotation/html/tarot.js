/* tarotnotation: the deal viewer and the archive index.
 *
 * This script only steps through data worked out by the Python side (who played which
 * card, who won each trick, both camps' points, the score): it holds no rule of the game.
 * Every string from a record reaches the page through textContent, never innerHTML.
 */
(function () {
  "use strict";
  var doc = document;
  var SVG_NS = "http://www.w3.org/2000/svg";
  var RANK_VALUES = { J: 11, N: 12, Q: 13, K: 14 };
  /* Display order of a hand: Spades, Hearts, Clubs, Diamonds (colours alternate), then
     the trumps and the Excuse. */
  var SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3, T: 4, X: 5 };
  /* Where each seat sits around the table, from the one at the bottom, in the order of
     play (counter-clockwise). */
  var AREAS = { 3: ["b", "tr", "tl"], 4: ["b", "r", "t", "l"], 5: ["b", "r", "tr", "tl", "l"] };
  var REPLACE_DELAY = 150;

  /* --- the words: every one from the page's table (tarot-words), in its language ----- */

  var WORDS = {};

  /* A word with its placeholders filled: say("cardOf", { k: 3, total: 72 }). */
  function say(key, values) {
    var w = WORDS[key];
    if (typeof w !== "string") { w = key; }
    return values ? fill(w, values) : w;
  }

  /* The form of a plural word for n (the singular for 1, and for 0 in French). */
  function sayN(key, n, values) {
    var forms = WORDS[key];
    if (!forms || typeof forms === "string") { return say(key, values); }
    var one = n === 1 || (WORDS._zeroOne === true && n === 0);
    var v = values || {};
    if (v.n === undefined) { v.n = n; }
    return fill(forms[one ? 0 : 1], v);
  }

  function fill(w, values) {
    return w.replace(/\{(\w+)\}/g, function (all, name) {
      return values[name] === undefined ? all : num(values[name]);
    });
  }

  /* A number of points as the page's language writes it (43,5 in French). */
  function num(value) {
    var text = String(value);
    return /^[+-]?\d+\.\d+$/.test(text) ? text.replace(".", say("decimal")) : text;
  }

  /* --- small DOM helpers ------------------------------------------------------------ */

  function el(tag, cls, text) {
    var e = doc.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function add(parent, child) {
    parent.appendChild(child);
    return child;
  }

  function button(cls, text, label) {
    var b = el("button", cls, text);
    b.type = "button";
    if (label) {
      b.setAttribute("aria-label", label);
      b.title = label;
    }
    return b;
  }

  function clear(e) {
    while (e.firstChild) { e.removeChild(e.firstChild); }
    return e;
  }

  function show(e, on) {
    e.classList.toggle("is-hidden", !on);
  }

  /* --- cards ------------------------------------------------------------------------ */

  var cardCache = {};

  function cardInfo(code) {
    var info = cardCache[code];
    if (info) { return info; }
    if (code === "EX") {
      info = { suit: "X", rank: "", value: 0, name: say("excuseName"), label: say("excuseShort") };
    } else if (code.charAt(0) === "T") {
      var n = parseInt(code.slice(1), 10);
      info = { suit: "T", rank: String(n), value: n, name: say("trumpName", { n: n }),
        label: String(n) };
    } else {
      var s = code.slice(-1);
      var r = code.slice(0, -1);
      info = {
        suit: s, rank: r, value: RANK_VALUES[r] || parseInt(r, 10),
        name: say("cardName", { rank: WORDS["rank." + r] || r, suit: say("suit." + s) }),
        label: WORDS["letter." + r] || r
      };
    }
    info.order = SUIT_ORDER[info.suit] * 100 + info.value;
    cardCache[code] = info;
    return info;
  }

  /* A card in a sentence: the notation's code (KH, T21, EX), or on a page whose words
     say cards their own way (WORDS._said, French), R♥, atout 21, Excuse. */
  function said(c) {
    var f = WORDS._said, r = c.slice(0, -1);
    return !f ? c : c === "EX" ? f.EX : c.charAt(0) === "T" ? fill(f.T, { n: c.slice(1) }) :
      (WORDS["letter." + r] || r) + f.suits.charAt("SHDC".indexOf(c.slice(-1)));
  }

  /* A card's cost as shown (-1.5, -3..-0.5), with the page's decimal separator. */
  function cost(text) {
    return text.replace(/(\d)\.(?=\d)/g, "$1" + say("decimal"));
  }

  /* The best cards of an analysis in words ("best KH", « meilleure carte R♥ »). */
  function bestOf(a) {
    return a.best && a.best.length ? say("best", { cards: a.best.map(said).join(", ") }) : "";
  }

  function pip(symbol, cls) {
    var svg = doc.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", cls || "pip");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    var use = doc.createElementNS(SVG_NS, "use");
    use.setAttribute("href", (cls ? "#ic-" : "#pip-") + symbol);
    svg.appendChild(use);
    return svg;
  }

  /* A card drawn with CSS and an inline SVG pip. */
  function cardEl(code, tag) {
    var info = cardInfo(code);
    var e = el(tag || "span", "card suit-" + info.suit);
    add(e, el("span", "rank", info.label));
    if (info.suit !== "T") { add(e, pip(info.suit)); }
    if (!tag || tag === "span") {
      e.setAttribute("role", "img");
      e.setAttribute("aria-label", info.name);
    }
    e.title = info.name;
    return e;
  }

  function sortedCodes(codes) {
    return codes.slice().sort(function (a, b) { return cardInfo(a).order - cardInfo(b).order; });
  }

  function cardRow(codes, cls) {
    var row = el("span", "cards" + (cls ? " " + cls : ""));
    sortedCodes(codes || []).forEach(function (c) { add(row, cardEl(c)); });
    return row;
  }

  /* --- notes: glyphs, comments, computed comments, diagnostics ------------------------ */

  function noteList(data, item, withGlyph) {
    var list = el("ul", "notes");
    if (!item) { return list; }
    if (withGlyph && item.g) { add(list, el("li", "glyph", item.g)); }
    (item.m || []).forEach(function (m) { add(list, el("li", "comment", m)); });
    (item.k || []).forEach(function (m) { add(list, el("li", "computed", m)); });
    (item.d || []).forEach(function (i) { add(list, diagEl(data.diags[i], "li")); });
    return list;
  }

  function diagEl(diag, tag) {
    var e = el(tag || "p", "diag sev-" + diag.sev + (diag.cause ? " follows" : ""));
    add(e, el("span", "code", diag.code));
    add(e, el("span", "sev", say("sev." + diag.sev)));
    if (!WORDS._said) { add(e, el("span", "slug", diag.slug)); }
    add(e, el("span", "msg", diag.msg));
    if (diag.at) { add(e, el("span", "at", diag.at)); }
    if (diag.cause) { add(e, el("span", "cause", say("followsFrom", { code: diag.cause }))); }
    return e;
  }

  function hasNotes(item) {
    return !!(item && (item.g || (item.m && item.m.length) || (item.k && item.k.length) ||
      (item.d && item.d.length)));
  }

  /* The worst severity of an item's diagnostics ("follows" when all follow from a cause). */
  function worstSeverity(data, item) {
    var worst = "";
    (item && item.d || []).forEach(function (i) {
      var d = data.diags[i];
      var s = d.cause ? "follows" : d.sev;
      if (s === "error" || !worst || (worst === "follows" && s !== "follows")) { worst = s; }
    });
    return worst;
  }

  /* --- the hash: #deal=N&card=K&seat=S ------------------------------------------------- */

  function readHash() {
    var out = {};
    var h = location.hash.replace(/^#/, "");
    h.split("&").forEach(function (part) {
      var eq = part.indexOf("=");
      if (eq > 0) {
        try {
          out[decodeURIComponent(part.slice(0, eq))] = decodeURIComponent(part.slice(eq + 1));
        } catch (err) { /* a malformed hash is ignored */ }
      }
    });
    return out;
  }

  function hashFor(n, k, seat, quiz) {
    return "#deal=" + n + "&card=" + k + (seat ? "&seat=" + encodeURIComponent(seat) : "") +
      (quiz && seat ? "&quiz=1" : "");
  }

  /* --- the deal viewer ---------------------------------------------------------------- */

  function Viewer(root, data) {
    this.root = root;
    this.data = data;
    this.cards = data.cards || [];
    this.tricks = data.tricks || [];
    this.total = this.cards.length;
    this.k = 0;
    this.view = null;          /* null: all hands; else a seat index */
    this.quiz = false;         /* quiz mode: one seat's view, the player guesses its cards */
    this.answers = {};         /* quiz: the card chosen at each point answered */
    this.timer = 0;
    this.build();
  }

  Viewer.prototype.seatName = function (i) {
    var seats = this.data.seats || [];
    if (i === null || i === undefined || !seats[i]) { return "?"; }
    var id = WORDS["seat." + seats[i].id] || seats[i].id;
    return seats[i].name ? id + " (" + seats[i].name + ")" : id;
  };

  Viewer.prototype.seatId = function (i) {
    var seats = this.data.seats || [];
    if (i === null || i === undefined || !seats[i]) { return "?"; }
    return WORDS["seat." + seats[i].id] || seats[i].id;
  };

  Viewer.prototype.build = function () {
    var data = this.data;
    var root = clear(this.root);
    root.classList.add("deal-view");
    this.buildHeader(root);
    if (!data.seats) {           /* a deal that could not be read */
      this.buildFaults(root);
      this.buildRecord(root);
      return;
    }
    /* a score sheet's deal: no card to show, the facts and the score only */
    this.sheet = !this.total && !(data.hands || []).some(function (h) { return h.length; });
    if (!this.sheet) {
      this.buildControls(root);
      this.buildTable(root);
      this.live = add(root, el("p", "sr-only"));
      this.live.setAttribute("role", "status");
      this.live.setAttribute("aria-live", "polite");
      this.buildQuiz(root);
      this.buildGraph(root);
    }
    var panels = add(root, el("div", "panels" + (this.sheet ? " sheet" : "")));
    this.buildAuction(panels);
    if (!this.sheet) { this.buildTrickList(panels); }
    this.buildScore(panels);
    this.buildFaults(panels);
    this.buildRecord(root);
    if (this.sheet) {
      show(this.scoreWait, false);
      this.renderBidding();
    }
  };

  Viewer.prototype.buildHeader = function (root) {
    var data = this.data;
    var head = add(root, el("header", "deal-head"));
    var nav = data.nav;
    if (nav) {
      var bar = add(head, el("nav", "deal-nav"));
      bar.setAttribute("aria-label", say("navDeals"));
      [["index", say("navIndex"), "index"], ["prev", say("navPrev"), "prev"],
        ["next", say("navNext"), "next"]].forEach(function (l) {
        if (nav[l[0]]) {
          var a = add(bar, el("a", "", l[1]));
          a.href = nav[l[0]];
          if (l[2] !== "index") { a.rel = l[2]; }
        }
      });
    }
    var h1 = add(head, el("h1", "", data.title));
    if (data.deal && data.deal.g) { add(h1, el("span", "glyph", " " + data.deal.g)); }
    var meta = [];
    if (data.players) { meta.push(say("players", { n: data.players })); }
    if (data.ruleset) { meta.push(say("ruleset", { name: data.ruleset })); }
    if (data.dealer !== null && data.dealer !== undefined) {
      meta.push(say("dealer", { seat: this.seatId(data.dealer) }));
    }
    meta.push(say("fileDeal", { file: data.file || say("stdin"), n: data.index }));
    add(head, el("p", "meta", meta.join(" · ")));
    var tags = (data.tags || []).filter(function (t) {
      return ["event", "round", "deal"].indexOf(t[0].toLowerCase()) < 0;
    });
    if (tags.length) {
      var dl = add(head, el("dl", "tags"));
      tags.forEach(function (t) {
        var div = add(dl, el("div"));
        add(div, el("dt", "", t[0]));
        add(div, el("dd", "", t[1]));
      });
    }
    var verdict = say("verdict", {
      errors: data.errors ? sayN("errors", data.errors) : say("noError"),
      warnings: sayN("warnings", data.warnings || 0)
    });
    add(head, el("p", "verdict " + (data.errors ? "bad" : "good"), verdict));
    if (data.deal && hasNotes({ m: data.deal.m, k: data.deal.k, d: data.deal.d })) {
      add(head, noteList(data, data.deal, false));
    }
    if (data.deal && data.deal.a) {
      add(head, el("p", "analysis", say("dealAnalysis", { from: data.deal.a.from,
        note: data.deal.a.note })));
    }
  };

  Viewer.prototype.buildControls = function (root) {
    var self = this;
    var bar = add(root, el("section", "controls"));
    bar.setAttribute("aria-label", say("controls"));
    var steps = add(bar, el("div", "steps"));
    steps.setAttribute("role", "group");
    steps.setAttribute("aria-label", say("steps"));
    var defs = [
      ["3 back", say("first"), function () { self.go(0); }],
      ["2 back", say("prevTrick"), function () { self.prevTrick(); }],
      ["1 back", say("prevCard"), function () { self.go(self.k - 1); }],
      ["1", say("nextCard"), function () { self.go(self.k + 1); }],
      ["2", say("nextTrick"), function () { self.nextTrick(); }],
      ["3", say("last"), function () { self.go(self.total); }]
    ];
    this.stepButtons = defs.map(function (def) {
      var b = add(steps, button("step", null, def[1]));
      add(b, pip(def[0].charAt(0), "icon" + def[0].slice(1)));
      b.addEventListener("click", def[2]);
      return b;
    });
    this.pos = add(bar, el("p", "pos"));
    var views = add(bar, el("div", "views"));
    views.setAttribute("role", "group");
    views.setAttribute("aria-label", say("views"));
    this.viewButtons = [];
    var all = add(views, button("view", say("allHands"), say("showAll")));
    all.addEventListener("click", function () { self.setView(null); });
    this.viewButtons.push([null, all]);
    (this.data.seats || []).forEach(function (s, i) {
      var b = add(views, button("view", s.id, say("showOnly", { seat: self.seatName(i) })));
      b.addEventListener("click", function () { self.setView(i); });
      self.viewButtons.push([i, b]);
    });
    this.quizButton = add(bar, button("view quiz-toggle", say("quiz")));
    this.quizButton.title = say("quizLabel");
    this.quizButton.addEventListener("click", function () { self.setQuiz(!self.quiz); });
    this.link = add(bar, el("a", "permalink", say("permalink")));
    var pic = add(bar, button("picture", say("picture")));
    pic.title = say("pictureLabel");
    pic.addEventListener("click", function () { self.savePicture(); });
  };

  Viewer.prototype.buildTable = function (root) {
    var data = this.data;
    var n = (data.seats || []).length;
    var table = add(root, el("section", "table seats-" + n));
    table.setAttribute("aria-label", say("table"));
    this.table = table;
    this.seatEls = [];
    this.handCards = [];       /* per card played: the element in its player's hand */
    for (var i = 0; i < n; i += 1) {
      var box = add(table, el("div", "seat"));
      box.setAttribute("data-seat", data.seats[i].id);
      var name = add(box, el("h2", "seat-name"));
      add(name, el("span", "seat-id", WORDS["seat." + data.seats[i].id] || data.seats[i].id));
      if (data.seats[i].name) { add(name, el("span", "seat-player", data.seats[i].name)); }
      var badge = add(name, el("span", "badge"));
      var hand = add(box, el("div", "hand"));
      var backs = add(box, el("p", "backs is-hidden"));
      var known = add(box, el("p", "known is-hidden", say("seenInPlay")));
      this.seatEls.push({ box: box, badge: badge, hand: hand, backs: backs, known: known,
        byCode: {} });
    }
    var centre = add(table, el("div", "centre"));
    this.trickInfo = add(centre, el("p", "trick-info"));
    this.trickEl = add(centre, el("div", "trick trick-" + n));
    this.trickEl.setAttribute("role", "group");
    this.trickEl.setAttribute("aria-label", say("trickBeing"));
    this.running = add(centre, el("p", "running"));
    this.nowNotes = add(centre, el("div", "now-notes"));
    this.nowNotes.setAttribute("role", "group");
    this.nowNotes.setAttribute("aria-label", say("notesHere"));
    this.fillHands();
    /* phones: a swipe across the table steps (left: the next card, right: back) */
    var self = this;
    var x0 = null;
    var y0 = 0;
    table.addEventListener("touchstart", function (e) {
      x0 = e.touches.length === 1 ? e.touches[0].clientX : null;
      y0 = x0 === null ? 0 : e.touches[0].clientY;
    }, { passive: true });
    table.addEventListener("touchend", function (e) {
      var t = e.changedTouches[0];
      var dx = x0 === null ? 0 : t.clientX - x0;
      x0 = null;
      if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(t.clientY - y0)) {
        self.go(self.k + (dx < 0 ? 1 : -1));
      }
    }, { passive: true });
  };

  /* The graph of the taker's margin with best play after each analysed card (the
     analysis' "made by 2" as +2, "lost by 3" as -3), the deal's value where the analysis
     starts first; a click goes to the card. Drawn when the record carries an analysis. */
  Viewer.prototype.buildGraph = function (root) {
    var self = this;
    var total = this.total;
    var pts = [];
    var a = this.data.deal && this.data.deal.a;
    if (a && a.by !== null && a.by !== undefined && this.tricks[a.from - 1]) {
      pts.push([this.tricks[a.from - 1].at, a.by]);
    }
    this.cards.forEach(function (c, i) {
      if (c.a && c.a.by !== null && c.a.by !== undefined) { pts.push([i + 1, c.a.by]); }
    });
    if (!pts.length || !total) { return; }
    var top = 5;
    pts.forEach(function (p) { top = Math.max(top, Math.abs(p[1])); });
    var x = function (k) { return 6 + k * 708 / total; };
    var y = function (v) { return 60 - v * 52 / top; };
    var fig = add(root, el("figure", "margin-graph"));
    var svg = fig;
    var draw = function (tag, attrs, cls) {
      var e = add(svg, doc.createElementNS(SVG_NS, tag));
      for (var n in attrs) { e.setAttribute(n, String(attrs[n])); }
      e.setAttribute("class", cls);
      return e;
    };
    svg = draw("svg", { viewBox: "0 0 720 120", role: "img", "aria-label": say("graphLabel",
      { first: pts[0][1], last: pts[pts.length - 1][1] }) }, "");
    draw("path", { d: "M0 60H720" }, "axis");
    draw("polyline", { points: pts.map(function (p) { return x(p[0]) + "," + y(p[1]); })
      .join(" ") }, "margin");
    pts.forEach(function (p) {
      draw("circle", { cx: x(p[0]), cy: y(p[1]), r: 3, "data-k": p[0] }, p[1] < 0 ? "lost" : "made");
    });
    this.graphNow = draw("line", { y2: 120 }, "now");
    this.graphX = x;
    add(fig, el("figcaption", "", say("graphCaption")));
    svg.addEventListener("click", function (e) {
      var k = e.target.getAttribute("data-k");
      var pt = svg.createSVGPoint();
      pt.x = e.clientX;
      pt.y = e.clientY;
      self.go(k ? +k : Math.round((pt.matrixTransform(svg.getScreenCTM().inverse()).x - 6) *
        total / 708));
    });
  };

  /* Quiz mode: in one seat's view, at each of its cards, the
     player chooses a card of the hand; the page says whether it was the card played and,
     with an analysis, what the choice was worth. The play to come stays hidden. */
  Viewer.prototype.buildQuiz = function (root) {
    var sec = add(root, el("section", "quiz is-hidden"));
    sec.setAttribute("aria-label", say("quiz"));
    this.quizPrompt = add(sec, el("p", "quiz-prompt"));
    this.quizChoices = add(sec, el("div", "quiz-choices"));
    this.quizChoices.setAttribute("role", "group");
    this.quizChoices.setAttribute("aria-label", say("quizChoices"));
    this.quizResult = add(sec, el("p", "quiz-result"));
    this.quizResult.setAttribute("role", "status");
    this.quizBox = sec;
  };

  Viewer.prototype.setQuiz = function (on) {
    this.quiz = on;
    if (on && this.view === null) {
      var next = this.cards[this.k];
      this.view = next ? next.s : (this.data.taker === null || this.data.taker === undefined ?
        0 : this.data.taker);
    }
    this.render(true);
    this.remember();
  };

  /* True when the quiz hides what the card to play at k was worth (not yet answered). */
  Viewer.prototype.quizHides = function (k) {
    return this.quiz && this.answers[k] === undefined;
  };

  Viewer.prototype.renderQuiz = function () {
    var self = this;
    var k = this.k;
    var next = this.cards[k];
    this.quizButton.setAttribute("aria-pressed", String(this.quiz));
    show(this.quizBox, this.quiz);
    this.root.classList.toggle("quiz-mode", this.quiz);
    if (!this.quiz) { return; }
    var turn = next && next.s === this.view;
    var seat = { seat: this.seatName(this.view) };
    var chosen = this.answers[k];
    clear(this.quizChoices);
    this.quizPrompt.textContent = turn ? say("quizTurn", seat) :
      say(next ? "quizWait" : "quizEnd", seat);
    this.quizResult.textContent = "";
    if (!turn) { return; }
    var hand = this.seatEls[next.s].byCode;
    sortedCodes(Object.keys(hand)).forEach(function (code) {
      if (hand[code].classList.contains("out")) { return; }
      var b = add(self.quizChoices, button("quiz-card" + (code === chosen ? " chosen" : "") +
        (chosen && code === next.c ? " played" : "")));
      add(b, hand[code].cloneNode(true)).setAttribute("aria-hidden", "true");
      add(b, el("span", "sr-only", cardInfo(code).name));
      b.setAttribute("data-card", code);
      var at = self.quizChoices.children.length - 1;
      b.addEventListener("click", function () {
        self.answers[k] = code;
        self.render(false);
        self.quizChoices.children[at].focus();
      });
    });
    if (chosen === undefined) { return; }
    var name = function (c) { return cardInfo(c).name; };
    var worth = chosen === next.c && next.a ? next.a.note : "";
    ((next.a && next.a.cards) || []).forEach(function (v) {
      if (v[0] === chosen) { worth = v[1] === "0" ? say("best", { cards: name(chosen) }) : v[2]; }
    });
    this.quizResult.textContent = (chosen === next.c ? say("quizRight", { card: name(chosen) }) :
      say("quizWrong", { card: name(next.c), chosen: name(chosen) })) +
      (worth ? " " + say("quizWorth", { value: worth }) : "");
  };

  /* Every legal card's value at this point (a record analysed with --all-cards): a mark
     on each card of the hand to play, the best ones marked, said in words on hover and
     to a screen reader. */
  Viewer.prototype.renderValues = function () {
    var self = this;
    (this.valued || []).forEach(function (e) {
      e.classList.remove("valued", "best");
      var mark = e.querySelector(".val");
      if (mark) { e.removeChild(mark); }
      e.setAttribute("aria-label", e.cardName);
      e.title = e.cardName;
    });
    this.valued = [];
    var next = this.cards[this.k];
    var a = next && next.a;
    var seat = next && this.seatEls[next.s];
    if (!a || !a.cards || !seat || this.quizHides(this.k) ||
        (this.view !== null && this.view !== next.s)) { return; }
    var before = this.k > 0 && this.cards[this.k - 1].a ? this.cards[this.k - 1].a.after :
      (this.data.deal && this.data.deal.a ? this.data.deal.a.after : "");
    a.cards.forEach(function (v) {
      var e = seat.byCode[v[0]];
      if (!e) { return; }
      var best = v[1] === "0";
      e.cardName = e.cardName || e.getAttribute("aria-label");
      e.classList.add("valued");
      if (best) { e.classList.add("best"); }
      add(e, el("span", "val", cost(v[1])));
      var words = e.cardName + ": " + (best ? say("valueBest", { outcome: before }) : v[2]);
      e.setAttribute("aria-label", words);
      e.title = words;
      self.valued.push(e);
    });
  };

  Viewer.prototype.fillHands = function () {
    var self = this;
    var data = this.data;
    var hands = data.hands || [];
    this.seatEls.forEach(function (s, i) {
      clear(s.hand);
      s.byCode = {};
      sortedCodes(hands[i] || []).forEach(function (code) {
        s.byCode[code] = add(s.hand, cardEl(code));
      });
      show(s.known, data.exact && !data.exact[i]);
    });
    this.handCards = this.cards.map(function (c) {
      var seat = self.seatEls[c.s];
      return seat ? seat.byCode[c.c] || null : null;
    });
    this.played = this.cards.map(function () { return false; });
  };

  Viewer.prototype.buildAuction = function (panels) {
    var self = this;
    var data = this.data;
    var sec = add(panels, el("section", "bidding"));
    add(sec, el("h2", "", say("auction")));
    if (data.auction && data.auction.length) {
      var ol = add(sec, el("ol", "auction"));
      data.auction.forEach(function (b) {
        var li = add(ol, el("li", b.bid === "pass" ? "pass" : "bid"));
        add(li, el("span", "who", self.seatId(b.s)));
        add(li, el("span", "what", (b.bid === "pass" ? say("pass") : b.bid) + (b.g || "")));
        if (hasNotes({ m: b.m, k: b.k, d: b.d })) { add(li, noteList(data, b, false)); }
      });
    } else {
      add(sec, el("p", "none", say("noAuction")));
    }
    var facts = add(sec, el("dl", "facts"));
    function fact(term, value) {
      var div = add(facts, el("div"));
      add(div, el("dt", "", term));
      var dd = add(div, el("dd"));
      if (typeof value === "string") { dd.textContent = value; } else { add(dd, value); }
      return dd;
    }
    if (data.contract) {
      fact(say("contract"), say("contractBy", { contract: data.contract,
        taker: this.seatName(data.taker) }));
    }
    if (data.called) {
      var called = el("span");
      add(called, cardEl(data.called));
      this.partnerText = add(called, el("span", "partner"));
      var dd = fact(say("calledCard"), called);
      if (data.call) { add(dd, noteList(data, data.call, true)); }
    }
    if (data.chien) {
      this.chienBox = fact(say("chien"), el("span")).firstChild;
      if (data.chienNote && data.chienNote.length) {
        add(this.chienBox.parentNode, noteList(data, { d: data.chienNote }, false));
      }
    }
    if (data.ecart) {
      this.ecartBox = fact(say("ecart"), el("span")).firstChild;
      add(this.ecartBox.parentNode, noteList(data, data.ecart, true));
    }
    if (data.handsNote && data.handsNote.length) {
      fact(say("hands"), noteList(data, { d: data.handsNote }, false));
    }
    (data.decl || []).forEach(function (decl) {
      var what = el("span", "", decl.kind + (decl.size ? " " + decl.size : ""));
      var dd = fact(self.seatName(decl.s), what);
      if (decl.cards) { add(dd, cardRow(decl.cards, "shown")); }
      if (hasNotes(decl)) { add(dd, noteList(data, decl, true)); }
    });
  };

  Viewer.prototype.buildTrickList = function (panels) {
    var self = this;
    var data = this.data;
    var sec = add(panels, el("section", "play"));
    add(sec, el("h2", "", say("play")));
    if (!this.tricks.length) {
      add(sec, el("p", "none", say("noPlay")));
      this.listButtons = [];
      this.listRows = [];
      return;
    }
    add(sec, el("p", "hint", say("hint")));
    var ol = add(sec, el("ol", "tricklist"));
    this.listButtons = [];
    this.listRows = [];
    this.tricks.forEach(function (t) {
      var li = add(ol, el("li", "trick-row"));
      self.listRows.push(li);
      var head = add(li, el("span", "tn", t.n + "."));
      if (t.g) { add(head, el("span", "glyph", t.g)); }
      var cardsBox = add(li, el("span", "tcards"));
      for (var k = t.at; k < t.at + t.len; k += 1) {
        var c = self.cards[k];
        var info = cardInfo(c.c);
        var label = say("plays", { n: t.n, seat: self.seatId(c.s),
          card: info.name + (c.g ? " " + c.g : "") });
        /* named by a sentence in its content, not by aria-label: what it shows ("E 20")
           is hidden from the name, which says it whole ("Trick 1: E plays trump 20") */
        var b = add(cardsBox, button("tc"));
        b.fullLabel = label;
        b.title = label;
        b.nameEl = add(b, el("span", "sr-only", label));
        b.tabIndex = -1;
        b.setAttribute("data-k", String(k + 1));
        var seen = b.faceEl = add(b, el("span", "tface"));
        seen.setAttribute("aria-hidden", "true");
        add(seen, el("span", "tseat", self.seatId(c.s)));
        var face = add(seen, cardEl(c.c, "span"));
        face.removeAttribute("role");
        face.removeAttribute("aria-label");
        face.removeAttribute("title");
        if (c.g) { add(seen, el("span", "glyph", c.g)); }
        if (t.w === c.s && t.w !== undefined) { b.classList.add("win"); }
        var sev = worstSeverity(data, c);
        if (sev) { b.classList.add("sev-" + sev); }
        if ((c.m && c.m.length) || (c.k && c.k.length)) { b.classList.add("noted"); }
        if (c.a) { self.markAnalysis(b, c.a); }
        self.listButtons.push(b);
      }
      var after = add(li, el("span", "tafter"));
      if (t.w !== undefined) {
        add(after, el("span", "twin", self.seatId(t.w) + " +" + num(t.pts)));
        if (t.tk !== undefined) {
          add(after, el("span", "trun", num(t.tk) + " / " + num(t.df)));
        }
      }
      if (hasNotes({ m: t.m, k: t.k, d: t.d })) { add(li, noteList(data, t, false)); }
    });
    ol.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("button[data-k]") : null;
      if (b) { self.go(parseInt(b.getAttribute("data-k"), 10)); }
    });
    add(sec, el("p", "legend", say("legend")));
  };

  /* The card-play analysis of a card: its cost as a mark, the best card on hover or
     focus. */
  Viewer.prototype.markAnalysis = function (b, a) {
    if (a.cost && a.cost !== "0") {
      add(b.faceEl, el("span", "cost" + (a.changed ? " changed" : ""), cost(a.cost)));
    }
    var best = bestOf(a);
    var tip = add(b.faceEl, el("span", "best"));
    if (best) { add(tip, el("strong", "", best)); }
    if (a.note) { add(tip, el("span", "", (best ? ". " : "") + a.note)); }
    b.fullLabel += ". " + say("analysis", { note: a.note || best });
    b.nameEl.textContent = b.fullLabel;
    b.title = b.fullLabel;
  };

  Viewer.prototype.buildScore = function (panels) {
    var data = this.data;
    var sec = add(panels, el("section", "score"));
    add(sec, el("h2", "", say("score")));
    this.scoreWait = add(sec, el("p", "wait", say("scoreWait")));
    var body = add(sec, el("div", "score-body"));
    this.scoreBody = body;
    if (data.rest) { add(body, el("p", "rest", data.rest)); }
    var ol = add(body, el("ol", "score-lines"));
    (data.score || []).forEach(function (line) { add(ol, el("li", "", line)); });
    if (data.result) {
      if (data.result.scores) {
        add(body, el("p", "recorded", say("recorded", { scores: data.result.scores.replace(
          /[^ +-]+(?=[+-])/g, function (id) { return WORDS["seat." + id] || id; }) })));
      }
      add(body, noteList(data, data.result, true));
    }
  };

  Viewer.prototype.buildFaults = function (parent) {
    var self = this;
    var data = this.data;
    if (!data.diags || !data.diags.length) { return; }
    var where = {};
    this.cards.forEach(function (c, k) {
      (c.d || []).forEach(function (i) { where[i] = k + 1; });
    });
    this.tricks.forEach(function (t) {
      (t.d || []).forEach(function (i) { where[i] = t.at + t.len; });
    });
    var sec = add(parent, el("section", "faults"));
    add(sec, el("h2", "", say("faults")));
    var ul = add(sec, el("ul"));
    data.diags.forEach(function (diag, i) {
      var li = add(ul, diagEl(diag, "li"));
      if (where[i] !== undefined) {
        var b = add(li, button("goto", say("goTo"), say("goToLabel", { code: diag.code })));
        b.addEventListener("click", function () { self.go(where[i]); });
      }
    });
  };

  Viewer.prototype.buildRecord = function (root) {
    var data = this.data;
    var sec = add(root, el("section", "record"));
    add(sec, el("h2", "", say("record")));
    /* named by what it shows (an aria-label would not contain it); said whole on hover */
    var b = add(sec, button("download", say("download", { name: data.textName })));
    b.title = say("downloadLabel", { name: data.textName });
    b.addEventListener("click", function () {
      save(new Blob([data.text], { type: "text/plain;charset=utf-8" }), data.textName);
    });
    var det = add(sec, el("details"));
    add(det, el("summary", "", say("showText")));
    add(det, el("pre", "record-text", data.text));
  };

  /* A file the browser saves (a link to the blob, clicked). */
  function save(blob, name) {
    var a = el("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    doc.body.appendChild(a);
    a.click();
    doc.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  }

  /* --- the table as a picture (PNG): drawn on a canvas in the page, nothing loaded ---- */

  var SIGNS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663", X: "\u2605" };
  /* each area's hand: the x of its middle, the y of its top, the cards a row */
  var SPOTS = { b: [360, 448, 24], t: [360, 84, 24], tl: [180, 84, 9], tr: [540, 84, 9],
    l: [110, 208, 6], r: [610, 208, 6] };
  /* where the card played from each area lies, from the middle of the table */
  var LIES = { b: [0, 46], t: [0, -46], tl: [-48, -30], tr: [48, -30], l: [-64, 0], r: [64, 0] };

  /* A card 24 by 34 with its top left corner at x, y: its letter and its suit's sign. */
  function drawCard(g, code, x, y) {
    var info = cardInfo(code);
    g.fillStyle = info.suit === "T" ? "#f4ecd4" : "#fff";
    g.strokeStyle = "#444";
    g.beginPath();
    (g.roundRect || g.rect).call(g, x, y, 24, 34, 3);
    g.fill();
    g.stroke();
    g.fillStyle = /[HD]/.test(info.suit) ? "#c0261e" : "#111";
    g.font = "bold 11px sans-serif";
    g.fillText(info.label, x + 12, y + 14);
    g.fillText(SIGNS[info.suit] || "", x + 12, y + 29);
  }

  /* The table at this point as the page shows it (the view's hands, the trick), on a
     canvas 720 by 560. */
  Viewer.prototype.picture = function () {
    var self = this;
    var d = this.data;
    var k = this.k;
    var n = this.seatEls.length;
    var bottom = this.view === null ? 0 : this.view;
    var canvas = el("canvas");
    canvas.width = 720;
    canvas.height = 560;
    var g = canvas.getContext("2d");
    g.fillStyle = "#1d6b3a";
    g.fillRect(0, 0, 720, 560);
    g.textAlign = "center";
    var put = function (text, x, y, font) {
      g.font = font || "bold 13px sans-serif";
      g.fillStyle = "#fff";
      g.fillText(text, x, y, 700);
    };
    var area = function (i) { return AREAS[n] && i !== null ? AREAS[n][(i - bottom + n) % n] : "b"; };
    put(d.title || "", 360, 22, "bold 16px sans-serif");
    put(this.trickInfo.textContent, 360, 44);
    put(this.running.textContent, 360, 546);
    var left = (d.hands || []).map(function (h) { return h.slice(); });
    for (var j = 0; j < k; j += 1) {
      var h = left[this.cards[j].s] || [];
      if (h.indexOf(this.cards[j].c) >= 0) { h.splice(h.indexOf(this.cards[j].c), 1); }
    }
    this.seatEls.forEach(function (s, i) {
      var p = SPOTS[area(i)];
      var hand = sortedCodes(left[i] || []);
      put(self.seatName(i), p[0], p[1] - 8);
      if (self.view !== null && self.view !== i) {
        put(sayN("cards", hand.length), p[0], p[1] + 20);
        return;
      }
      hand.forEach(function (code, m) {
        var row = Math.floor(m / p[2]);
        var inRow = Math.min(p[2], hand.length - row * p[2]);
        drawCard(g, code, p[0] - inRow * 13 + (m % p[2]) * 26, p[1] + row * 38);
      });
    });
    var t = this.trickOf(k);
    for (var c = t < 0 ? k : this.tricks[t].at; c < k; c += 1) {
      var lie = LIES[area(this.cards[c].s)];
      drawCard(g, this.cards[c].c, 348 + lie[0], 270 + lie[1]);
    }
    return canvas;
  };

  /* The picture downloaded as deal-N-card-K.png, and copied where the browser allows. */
  Viewer.prototype.savePicture = function () {
    var name = "deal-" + this.data.n + "-card-" + this.k + ".png";
    this.picture().toBlob(function (blob) {
      if (!blob) { return; }
      save(blob, name);
      try {
        navigator.clipboard.write([new ClipboardItem({ "image/png": blob })])
          .catch(function () { return null; });
      } catch (e) { /* no clipboard for pictures here */ }
    }, "image/png");
  };

  /* --- stepping ------------------------------------------------------------------------ */

  Viewer.prototype.trickOf = function (k) {      /* the trick of the k-th card played */
    return k > 0 ? this.cards[k - 1].t : -1;
  };

  Viewer.prototype.nextTrick = function () {
    var t = this.trickOf(this.k);
    var cur = this.tricks[t];
    if (t < 0) { cur = this.tricks[0]; } else if (this.k >= cur.at + cur.len) {
      cur = this.tricks[t + 1];
    }
    this.go(cur ? cur.at + cur.len : this.total);
  };

  Viewer.prototype.prevTrick = function () {
    var t = this.trickOf(this.k);
    var prev = this.tricks[t - 1];
    this.go(prev ? prev.at + prev.len : 0);
  };

  Viewer.prototype.setView = function (seat) {
    this.view = seat;
    if (seat === null) { this.quiz = false; }
    this.render(true);
    this.remember();
  };

  Viewer.prototype.go = function (k) {
    if (isNaN(k)) { return; }
    k = Math.max(0, Math.min(this.total, k));
    var moved = k !== this.k;
    this.k = k;
    this.render(false);
    if (moved) { this.announce(); }
    this.remember();
  };

  /* The address follows the stepping at once (replaceState), then at most every
     REPLACE_DELAY ms while the steps come faster (browsers throttle bursts of history
     calls, and a held key repeats fast): the last step always reaches the address. */
  Viewer.prototype.remember = function () {
    var self = this;
    this.link.href = this.hash();
    if (this.timer) {
      this.stale = true;
      return;
    }
    var tick = function () {
      self.timer = 0;
      if (self.stale) {
        self.stale = false;
        self.replaceHash();
        self.timer = setTimeout(tick, REPLACE_DELAY);
      }
    };
    this.replaceHash();
    this.timer = setTimeout(tick, REPLACE_DELAY);
  };

  Viewer.prototype.replaceHash = function () {
    var now = this.hash();
    if (viewer !== this || location.hash === now) { return; }  /* a deal no longer shown */
    try { history.replaceState(null, "", now); } catch (err) { /* throttled */ }
    this.stale = location.hash !== now;   /* tried again at the next tick */
  };

  Viewer.prototype.hash = function () {
    return hashFor(this.data.n, this.k, this.view === null ? null : this.seatId(this.view),
      this.quiz);
  };

  Viewer.prototype.partnerKnown = function () {
    var d = this.data;
    if (this.view === null || d.partner === null || d.partner === undefined) { return true; }
    if (this.view === d.partner) { return true; }
    return d.calledAt !== null && d.calledAt !== undefined && this.k > d.calledAt;
  };

  Viewer.prototype.render = function (viewChanged) {
    var self = this;
    var d = this.data;
    var k = this.k;
    var view = this.view;
    var n = this.seatEls.length;
    var bottom = view === null ? 0 : view;
    var partnerKnown = this.partnerKnown();
    /* the seats: where they sit, their badges, their hands */
    this.seatEls.forEach(function (s, i) {
      var area = AREAS[n] ? AREAS[n][(i - bottom + n) % n] : "b";
      s.box.className = "seat at-" + area + (view === i ? " viewer" : "");
      var badges = [];
      if (i === d.taker) { badges.push(say("badge.taker")); }
      if (i === d.partner && i !== d.taker && partnerKnown) { badges.push(say("badge.partner")); }
      if (i === d.dealer) { badges.push(say("badge.dealer")); }
      s.badge.textContent = badges.join(" · ");
      var hidden = view !== null && view !== i;
      show(s.hand, !hidden);
      show(s.backs, hidden);
    });
    for (var j = 0; j < this.total; j += 1) {
      var out = j < k;
      if (this.played[j] !== out) {
        this.played[j] = out;
        if (this.handCards[j]) { this.handCards[j].classList.toggle("out", out); }
      }
    }
    if (view !== null) {
      this.seatEls.forEach(function (s, i) {
        if (i === view) { return; }
        var left = (d.hands[i] || []).length;
        for (var c = 0; c < k; c += 1) { if (self.cards[c].s === i) { left -= 1; } }
        s.backs.textContent = "";
        add(s.backs, el("span", "card back"));
        add(s.backs, el("span", "count", sayN("cards", left)));
      });
    }
    if (viewChanged || !this.rendered) {
      this.renderBidding();
      this.viewButtons.forEach(function (pair) {
        pair[1].setAttribute("aria-pressed", String(pair[0] === view));
      });
      this.rendered = true;
    }
    if (this.partnerText) {
      this.partnerText.textContent = d.partner === null || d.partner === undefined ?
        (d.taker !== null && d.taker !== undefined && d.contract ? say("alone") : "") :
        (partnerKnown ? say("partnerIs", { seat: this.seatName(d.partner) }) :
          say("partnerUnknown"));
    }
    this.renderTrick();
    this.renderList();
    this.renderValues();
    this.renderQuiz();
    if (this.graphNow) {
      this.graphNow.setAttribute("x1", String(this.graphX(k)));
      this.graphNow.setAttribute("x2", String(this.graphX(k)));
    }
    /* the buttons and the end */
    /* aria-disabled, not disabled: a button keeps the focus at either end */
    for (var b = 0; b < 6; b += 1) {
      this.stepButtons[b].setAttribute("aria-disabled", String(b < 3 ? k === 0 : k === this.total));
    }
    var atEnd = k === this.total;
    this.root.classList.toggle("at-end", atEnd);
    this.root.classList.toggle("seat-view", view !== null);
    show(this.scoreWait, !atEnd);
    show(this.scoreBody, atEnd);
  };

  Viewer.prototype.renderBidding = function () {
    var d = this.data;
    var view = this.view;
    if (this.chienBox) {
      clear(this.chienBox);
      if (view !== null && view !== undefined && !d.chienSeen) {
        add(this.chienBox, el("span", "face-down", sayN("chienFaceDown", d.chien.length)));
      } else {
        add(this.chienBox, cardRow(d.chien));
      }
    }
    if (this.ecartBox) {
      clear(this.ecartBox);
      var e = d.ecart;
      var own = view === null || view === undefined || view === d.taker;
      if (own && e.cards) {
        add(this.ecartBox, cardRow(e.cards));
      } else {
        add(this.ecartBox, el("span", "face-down", e.cards ? say("faceDown") : say("notRecorded")));
        if (e.shown && e.shown.length) {
          add(this.ecartBox, el("span", "", say("trumpsShown")));
          add(this.ecartBox, cardRow(e.shown, "shown"));
        }
      }
    }
  };

  Viewer.prototype.renderTrick = function () {
    var d = this.data;
    var k = this.k;
    var n = this.seatEls.length;
    var bottom = this.view === null ? 0 : this.view;
    clear(this.trickEl);
    clear(this.nowNotes);
    var tr0 = this.trickOf(k);
    var last = -1;
    for (var i = this.tricks.length - 1; i >= 0; i -= 1) {
      var tr = this.tricks[i];
      if (tr.tk !== undefined && tr.at + tr.len <= k) { last = i; break; }
    }
    var rs = k === this.total && d.restSum;
    this.running.textContent = last < 0 ? say("runningPoints", { taker: 0, defence: 0 }) :
      rs ? say("runningRest." + rs[1], { taker: this.tricks[last].tk, defence: this.tricks[last].df,
        heap: say(rs[0]), points: rs[2], total: rs[1] === "taker" ? rs[3] : rs[4] }) :
      say("runningPoints", { taker: this.tricks[last].tk, defence: this.tricks[last].df });
    if (tr0 < 0) {
      this.trickInfo.textContent = this.total ? say("beforeFirst") : say("noCardPlayed");
      this.pos.textContent = this.total ? say("cardOf", { k: 0, total: this.total }) :
        say("noPlayRecorded");
      return;
    }
    var trick = this.tricks[tr0];
    var complete = k === trick.at + trick.len;
    var ahead = !complete && trick.ws ? trick.ws[k - 1 - trick.at] : null;
    for (var c = trick.at; c < k; c += 1) {
      var card = this.cards[c];
      var slot = add(this.trickEl, el("div", "played"));
      var area = AREAS[n] && card.s !== null ? AREAS[n][(card.s - bottom + n) % n] : "b";
      slot.classList.add("at-" + area);
      if (c === k - 1) { slot.classList.add("last"); }
      if (complete && trick.w === card.s) { slot.classList.add("win"); }
      if (ahead !== null && ahead === card.s) { slot.classList.add("ahead"); }
      add(slot, cardEl(card.c));
      add(slot, el("span", "who", this.seatId(card.s)));
    }
    var facts = { n: trick.n, total: this.tricks.length };
    var info = say("trickOf", facts);
    if (ahead !== null) {   /* mid-trick: who led, who is winning it so far */
      facts.leader = this.seatId(this.cards[trick.at].s);
      facts.seat = this.seatId(ahead);
      info = say("trickAhead", facts);
    }
    if (complete && trick.w !== undefined) {
      facts.seat = this.seatId(trick.w);
      facts.points = trick.pts;
      facts.camp = trick.ex ? say("camp." + trick.ex) : "";
      info = say(trick.ex ? "trickWonExcuse" : "trickWon", facts);
    }
    this.trickInfo.textContent = info;
    this.pos.textContent = say("cardOf", { k: k, total: this.total });
    /* the notes at this card: the trick's, then the card's */
    var cur = this.cards[k - 1];
    if (hasNotes({ g: trick.g, m: trick.m, k: trick.k, d: trick.d })) {
      add(this.nowNotes, noteList(d, trick, true)).classList.add("trick-notes");
    }
    if (hasNotes(cur)) {
      var box = add(this.nowNotes, el("div", "card-notes"));
      add(box, el("p", "at-card", this.seatId(cur.s) + " " + said(cur.c) + (cur.g || "")));
      add(box, noteList(d, cur, false));
    }
    if (cur.a) {
      add(this.nowNotes, el("p", "analysis", say("analysis", { note: cur.a.note ||
        bestOf(cur.a) })));
    }
  };

  Viewer.prototype.renderList = function () {
    var prev = this.current;
    var b = this.k > 0 ? this.listButtons[this.k - 1] : null;
    if (prev && prev !== b) {
      prev.classList.remove("cur");
      prev.removeAttribute("aria-current");
    }
    var hide = this.view !== null;
    for (var i = 0; i < this.listButtons.length; i += 1) {
      var lb = this.listButtons[i];
      lb.classList.toggle("done", i < this.k);
      /* one seat's view: a card to come is not named, to a screen reader either */
      var label = hide && i >= this.k ? say("cardToCome", { n: this.tricks[this.cards[i].t].n }) :
        lb.fullLabel;
      if (lb.nameEl.textContent !== label) {
        lb.nameEl.textContent = label;
        lb.title = label;
      }
    }
    for (var t = 0; t < this.listRows.length; t += 1) {
      this.listRows[t].classList.toggle("complete", this.tricks[t].at + this.tricks[t].len <= this.k);
    }
    if (b) {
      b.classList.add("cur");
      b.setAttribute("aria-current", "step");
    }
    this.current = b;
    /* the play list is one tab stop (the current card, else the first), the arrow keys
       move inside it, and the focus follows the step */
    var stop = b || this.listButtons[0] || null;
    if (stop !== this.tabStop) {
      var had = this.tabStop && doc.activeElement === this.tabStop;
      if (this.tabStop) { this.tabStop.tabIndex = -1; }
      if (stop) {
        stop.tabIndex = 0;
        if (had) { stop.focus(); }
      }
      this.tabStop = stop;
    }
  };

  Viewer.prototype.announce = function () {
    var k = this.k;
    var parts = [];
    if (k === 0) {
      parts.push(say("liveBefore"));
    } else {
      var c = this.cards[k - 1];
      var tr = this.tricks[c.t];
      parts.push(say("livePlay", { n: tr.n, k: k - tr.at, seat: this.seatName(c.s),
        card: cardInfo(c.c).name + (c.g ? " " + c.g : "") }));
      if (k === tr.at + tr.len && tr.w !== undefined) {
        parts.push(say("liveWins", { seat: this.seatId(tr.w), points: tr.pts }));
      }
      (c.m || []).forEach(function (m) { parts.push(say("liveComment", { text: m })); });
      var data = this.data;
      (c.d || []).forEach(function (i) {
        var diag = data.diags[i];
        parts.push(say("liveDiag", { sev: say("sev." + diag.sev), code: diag.code, msg: diag.msg }));
      });
      if (k === this.total) {
        parts.push(say("liveEnd", { score: (this.data.score || []).join(". ") }));
      }
    }
    this.live.textContent = parts.join(" ");
  };

  Viewer.prototype.applyHash = function (h) {
    if (!this.data.seats || this.sheet) { return; }
    if (h.seat !== undefined) {
      var idx = -1;
      (this.data.seats || []).forEach(function (s, i) { if (s.id === h.seat) { idx = i; } });
      this.view = idx < 0 ? null : idx;
    } else {
      this.view = null;
    }
    this.quiz = h.quiz === "1" && this.view !== null;
    var k = h.card !== undefined ? parseInt(h.card, 10) : 0;
    this.k = isNaN(k) ? 0 : Math.max(0, Math.min(this.total, k));
    this.render(true);
    if (this.link) { this.link.href = this.hash(); }
  };

  Viewer.prototype.key = function (e) {
    if (!this.data.seats || this.sheet) { return false; }
    switch (e.key) {
      case "ArrowRight": this.go(this.k + 1); return true;
      case "ArrowLeft": this.go(this.k - 1); return true;
      case "ArrowDown": this.nextTrick(); return true;
      case "ArrowUp": this.prevTrick(); return true;
      case "Home": this.go(0); return true;
      case "End": this.go(this.total); return true;
      default: return false;
    }
  };

  /* play: begin (only the game page of tarot play has this part) */
  /* --- the game: tarot play ----------------------------------------------------------------
     The server is the referee: it sends what South may see, the question asked and its
     legal answers (with the kernel's words for each card that may not be played); this
     part draws them and sends South's answers. It holds no rule of the game. */

  function Play(root, config) {
    this.root = root;
    this.sid = config.session;
    this.delay = typeof config.delay === "number" ? config.delay : 350;
    this.seen = 0;
    this.state = null;
    this.busy = false;
    this.chosen = {};
    this.analysisTimer = null;
    var api = "/api/" + encodeURIComponent(this.sid);
    this.api = api;
    this.status = add(root, el("p", "play-status"));
    this.status.setAttribute("role", "status");
    this.status.setAttribute("aria-live", "polite");
    this.board = add(root, el("section", "play-table"));
    this.board.setAttribute("aria-label", say("play.table"));
    this.ask = add(root, el("section", "play-ask"));
    this.ask.setAttribute("aria-label", say("play.question"));
    this.why = add(root, el("p", "play-why"));
    this.why.setAttribute("role", "alert");
    this.handBox = add(root, el("section", "play-hand"));
    add(this.handBox, el("h2", "", say("play.hand")));
    this.hand = add(this.handBox, el("div", "hand-cards"));
    this.hand.setAttribute("role", "group");
    this.hand.setAttribute("aria-label", say("play.handHelp"));
    this.end = add(root, el("section", "play-end is-hidden"));
    var self = this;
    this.hand.addEventListener("keydown", function (e) { self.handKey(e); });
    this.get(api + "/state?since=0");
  }

  // tarot serve's pages keep the player's token (never in an address or a cookie): it
  // goes in the Authorization header of every request of the game.
  function withToken(headers) {
    var token = null;
    try { token = window.localStorage.getItem("tarot-token"); } catch (e) { token = null; }
    if (token) { headers.Authorization = "Bearer " + token; }
    if (document.documentElement.lang) { headers["Accept-Language"] = document.documentElement.lang; }
    return headers;
  }

  // Every refusal, the game's or the guard's (401, 403, 409, 413, 429...), is
  // {refused: {code, message, expected}}: its words, and what was expected.
  function refusedWords(refused) {
    return say("play.refused", { why: refused.message + (refused.expected ? " (" + refused.expected + ")" : "") });
  }

  Play.prototype.get = function (url) {
    var self = this;
    fetch(url, { credentials: "same-origin", headers: withToken({}) })
      .then(function (r) { return r.json(); })
      .then(function (state) {
        if (state.refused) { self.say(refusedWords(state.refused)); return; }
        self.receive(state);
      })
      .catch(function () { self.say(say("play.lost")); });
  };

  Play.prototype.setBusy = function (on) {
    this.busy = on;
    if (on) { this.root.setAttribute("data-busy", "1"); } else { this.root.removeAttribute("data-busy"); }
  };

  Play.prototype.send = function (action) {
    var self = this;
    this.setBusy(true);
    this.why.textContent = "";
    fetch(this.api + "/action?since=" + this.seen, {
      method: "POST", credentials: "same-origin",
      headers: withToken({ "Content-Type": "application/json" }), body: JSON.stringify(action)
    }).then(function (r) { return r.json(); }).then(function (answer) {
      if (answer.refused) {
        self.setBusy(false);
        self.why.textContent = refusedWords(answer.refused);
        self.draw(self.state);
        return;
      }
      self.receive(answer);
    }).catch(function () { self.setBusy(false); self.say(say("play.lost")); });
  };

  Play.prototype.say = function (text) {
    this.status.textContent = text;
  };

  /* A state from the server: the answers since the last one shown one at a time, then
     the state drawn. */
  Play.prototype.receive = function (state) {
    var self = this;
    var events = state.events || [];
    this.seen = state.seen;
    this.setBusy(true);
    var base = this.playsBefore(state, events);
    var i = 0;
    var step = function () {
      if (i >= events.length) {
        self.draw(state);
        self.setBusy(false);
        return;
      }
      var e = events[i++];
      var shown = self.showEvent(e, state, base);
      if (e.kind === "play" && e.deal === state.deal) { base += 1; }
      if (shown && self.delay > 0 && e.seat !== state.seat) {
        setTimeout(step, self.delay);
      } else {
        step();
      }
    };
    step();
  };

  /* How many cards of the deal in progress were played before these events'. */
  Play.prototype.playsBefore = function (state, events) {
    var total = 0;
    (state.tricks || []).forEach(function (t) { total += t.cards.length; });
    if (state.trick) { total += state.trick.cards.length; }
    events.forEach(function (e) {
      if (e.kind === "play" && e.deal === state.deal) { total -= 1; }
    });
    return total;
  };

  Play.prototype.seatName = function (state, seat) {
    return seat === state.seat ? say("play.you") : (WORDS["seat." + seat] || seat);
  };

  Play.prototype.bidName = function (value) {
    return value === "pass" ? say("pass") : say("bid." + value);
  };

  /* One answer given at the table, shown; false when there was nothing to show. */
  Play.prototype.showEvent = function (e, state, played) {
    var who = this.seatName(state, e.seat);
    if (e.deal !== state.deal) {
      var over = state.deals[e.deal];
      if (e.kind === "bid" && over && over.annulled) { this.say(say("play.allPass")); }
      return false;
    }
    if (e.kind === "bid") {
      this.bubble(state, e.seat, this.bidName(e.value));
      this.say(say("play.bidSaid", { seat: who, bid: this.bidName(e.value) }));
      return true;
    }
    if (e.kind === "call") {
      this.say(say("play.called", { seat: who, card: said(e.value) }));
      return true;
    }
    if (e.kind === "ecart") {
      this.say(say("play.ecartMade", { seat: who }));
      return true;
    }
    if (e.kind === "chelem") {
      if (e.value === "yes") { this.say(say("play.chelemAnnounced", { seat: who })); }
      return e.value === "yes";
    }
    if (e.kind === "declare") {
      var shown = JSON.parse(e.value || "[]");
      var told = shown.map(function (d) {
        if (d.kind === "misere") {
          return say(d.misere === "tete" ? "play.misereShownTete" : "play.misereShownAtout", { seat: who });
        }
        return say("play.poigneeShown", { seat: who, cards: (d.cards || []).map(said).join(" ") });
      });
      if (!told.length) { return false; }
      this.say(told.join(" "));
      return true;
    }
    /* a card: the trick as it stood once it was played */
    var n = state.seats.length;
    var t = Math.floor(played / n);
    var trick = t < state.tricks.length ? state.tricks[t] : state.trick;
    if (!trick) { return false; }
    var upto = played % n + 1;
    this.drawTrick(state, trick, upto, upto === n ? trick.winner : null);
    this.say(say("play.playedBy", { seat: who, card: said(e.value) }));
    return true;
  };

  Play.prototype.bubble = function (state, seat, text) {
    var node = this.bids[seat];
    if (node) { node.textContent = text; }
  };

  /* The table: each seat with its last bid, the trick in the middle. */
  Play.prototype.drawBoard = function (state) {
    var board = clear(this.board);
    board.className = "play-table seats-" + state.seats.length;
    var areas = AREAS[state.seats.length];
    var self = this;
    var k = state.seats.indexOf(state.seat);
    this.bids = {};
    state.seats.forEach(function (seat, i) {
      var box = add(board, el("div", "play-seat at-" + areas[(i - k + state.seats.length) %
        state.seats.length]));
      var name = add(box, el("p", "seat-name"));
      add(name, el("span", "seat-id", self.seatName(state, seat)));
      if (seat === state.taker && state.phase !== "auction") {
        add(name, el("span", "badge", say("badge.taker")));
      }
      if (state.partner_known && seat === state.partner) {
        add(name, el("span", "badge", say("badge.partner")));
      }
      var bid = add(box, el("p", "play-bid"));
      bid.setAttribute("data-bid", seat);
      self.bids[seat] = bid;
      var said_ = state.auction[(state.seats.indexOf(seat) -
        state.seats.indexOf(self.firstSeat(state)) + state.seats.length) % state.seats.length];
      if (said_ !== undefined) { bid.textContent = self.bidName(said_); }
    });
    this.middle = add(board, el("div", "play-trick trick"));
    this.middle.setAttribute("role", "group");
    this.middle.setAttribute("aria-label", say("play.trick"));
  };

  Play.prototype.firstSeat = function (state) {
    var d = state.seats.indexOf(state.dealer);
    return state.seats[(d + 1) % state.seats.length];
  };

  Play.prototype.drawTrick = function (state, trick, upto, winner) {
    var mid = clear(this.middle);
    var n = state.seats.length;
    var areas = AREAS[n];
    var k = state.seats.indexOf(state.seat);
    var lead = state.seats.indexOf(trick.leader);
    trick.cards.slice(0, upto).forEach(function (code, j) {
      var seat = state.seats[(lead + j) % n];
      var spot = add(mid, el("div", "played at-" + areas[(lead + j - k + 2 * n) % n] +
        (seat === winner ? " win" : "")));
      spot.setAttribute("data-seat", seat);
      spot.setAttribute("data-card", code);
      add(spot, cardEl(code));
      add(spot, el("span", "who", WORDS["seat." + seat] || seat));
    });
  };

  /* The whole page from a state. */
  Play.prototype.draw = function (state) {
    this.state = state;
    this.chosen = {};
    this.drawBoard(state);
    if (state.trick && state.trick.cards.length) {
      this.drawTrick(state, state.trick, state.trick.cards.length, null);
    } else if (state.tricks.length) {
      var last = state.tricks[state.tricks.length - 1];
      this.drawTrick(state, last, last.cards.length, last.winner);
    }
    this.drawQuestion(state);
    this.drawHand(state);
    this.drawEnd(state);
    this.root.setAttribute("data-phase", state.phase);
    this.root.setAttribute("data-question", state.question ? state.question.kind : "");
    this.root.setAttribute("data-deal", String(state.deal));
    this.root.setAttribute("data-seen", String(state.seen));
  };

  Play.prototype.drawQuestion = function (state) {
    var box = clear(this.ask);
    var q = state.question;
    var self = this;
    if (!q) {
      if (state.phase !== "over") { this.say(say("play.wait")); }
      return;
    }
    var prompt = add(box, el("h2", "play-prompt"));
    var row = add(box, el("div", "play-choices"));
    var choice = function (text, action, cls) {
      var b = add(row, button("play-choice" + (cls ? " " + cls : ""), text));
      b.addEventListener("click", function () { if (!self.busy) { self.send(action); } });
      return b;
    };
    if (state.chien && state.phase !== "play") {
      var chien = add(box, el("p", "play-chien"));
      add(chien, el("span", "", say("chien") + " "));
      add(chien, cardRow(state.chien));
    }
    if (q.kind === "bid") {
      prompt.textContent = say("play.askBid");
      q.bids.forEach(function (b) {
        choice(self.bidName(b), { kind: "bid", value: b }, b === "pass" ? "pass" : "");
      });
    } else if (q.kind === "call") {
      prompt.textContent = say("play.askCall");
      q.cards.forEach(function (c) {
        var b = add(row, cardEl(c, "button"));
        b.type = "button";
        b.className += " play-choice";
        b.setAttribute("aria-label", cardInfo(c).name);
        b.addEventListener("click", function () {
          if (!self.busy) { self.send({ kind: "call", value: c }); }
        });
      });
    } else if (q.kind === "ecart") {
      prompt.textContent = say("play.askEcart", { n: q.size });
      prompt.setAttribute("data-size", String(q.size));
      this.count = add(box, el("p", "play-count", say("play.ecartChosen", { k: 0, n: q.size })));
      this.make = add(row, button("play-choice make", say("play.makeEcart")));
      this.make.setAttribute("aria-disabled", "true");
    } else if (q.kind === "chelem") {
      prompt.textContent = say("play.askChelem");
      choice(say("play.no"), { kind: "chelem", value: "no" }, "no");
      choice(say("play.yes"), { kind: "chelem", value: "yes" }, "yes");
    } else if (q.kind === "declare") {
      prompt.textContent = say("play.askDeclare");
      choice(say("play.noPoignee"), { kind: "declare", cards: [] }, "none");
      /* each poignée (or none) with each misère the hand may declare (or none): the
         server's list, the kernel's misere_faults */
      var miseres = [[]].concat((q.miseres || []).map(function (m) { return [m]; }));
      if ((q.miseres || []).length > 1) { miseres.push(q.miseres); }
      [[]].concat(q.poignees).forEach(function (cards) {
        miseres.forEach(function (ms) {
          if (!cards.length && !ms.length) { return; }
          var parts = (cards.length ? [say("play.poignee", { n: cards.length })] : [])
            .concat(ms.map(function (m) { return say(m === "tete" ? "play.misereTete" : "play.misereAtout"); }));
          var text = parts.reduce(function (a, b) { return say("play.and", { a: a, b: b }); });
          choice(text, { kind: "declare", cards: cards, value: ms.join(" ") },
                 ms.length ? "misere-" + ms.join("-") : "");
        });
      });
    } else {
      prompt.textContent = say("play.askPlay");
    }
    this.say(prompt.textContent);
  };

  Play.prototype.drawHand = function (state) {
    var hand = clear(this.hand);
    var q = state.question;
    var self = this;
    var ecart = q && q.kind === "ecart";
    var codes = ecart ? state.hand.concat(state.chien || []) : state.hand;
    var first = true;
    sortedCodes(codes).forEach(function (code) {
      var b = add(hand, cardEl(code, "button"));
      b.type = "button";
      b.className += " hand-card";
      b.setAttribute("data-card", code);
      var name = cardInfo(code).name;
      var ok = false;
      var reason = "";
      if (ecart) {
        ok = q.cards.indexOf(code) >= 0;
        b.setAttribute("aria-pressed", "false");
        if ((state.chien || []).indexOf(code) >= 0) { b.className += " from-chien"; }
        if (!ok) { reason = say("play.notInEcart", { card: said(code) }); }
      } else if (q && q.kind === "play") {
        ok = q.cards.indexOf(code) >= 0;
        if (!ok) { reason = say("play.cannot", { card: said(code), why: q.refused[code] || "" }); }
      }
      b.setAttribute("aria-label", reason || name);
      b.title = reason || name;
      if (!ok) {
        b.setAttribute("aria-disabled", "true");
        b.className += " illegal";
      }
      b.tabIndex = first ? 0 : -1;
      first = false;
      b.addEventListener("click", function () { self.cardClick(b, code, ok, reason); });
    });
  };

  Play.prototype.cardClick = function (b, code, ok, reason) {
    var q = this.state && this.state.question;
    if (!q || this.busy) { return; }
    if (!ok) {
      this.why.textContent = reason;
      return;
    }
    this.why.textContent = "";
    if (q.kind === "play") {
      /* the card shows at once in the trick; the server's answer follows */
      var state = this.state;
      var shown = state.trick ? state.trick.cards.slice() : [];
      shown.push(code);
      this.drawTrick(state, { leader: state.trick && state.trick.cards.length ?
        state.trick.leader : state.seat, cards: shown }, shown.length, null);
      b.classList.add("is-hidden");
      this.send({ kind: "play", value: code });
    } else if (q.kind === "ecart") {
      var on = !this.chosen[code];
      var count = Object.keys(this.chosen).length;
      if (on && count >= q.size) { return; }
      if (on) { this.chosen[code] = true; } else { delete this.chosen[code]; }
      b.setAttribute("aria-pressed", on ? "true" : "false");
      count = Object.keys(this.chosen).length;
      this.count.textContent = say("play.ecartChosen", { k: count, n: q.size });
      var self = this;
      var ready = count === q.size;
      this.make.setAttribute("aria-disabled", ready ? "false" : "true");
      this.make.onclick = ready ? function () {
        if (!self.busy) { self.send({ kind: "ecart", cards: Object.keys(self.chosen) }); }
      } : null;
    }
  };

  /* The arrow keys move between the cards of the hand (one tab stop). */
  Play.prototype.handKey = function (e) {
    var cards = Array.prototype.slice.call(this.hand.querySelectorAll(".hand-card:not(.is-hidden)"));
    var at = cards.indexOf(doc.activeElement);
    if (at < 0) { return; }
    var to = e.key === "ArrowRight" || e.key === "ArrowDown" ? at + 1 :
      e.key === "ArrowLeft" || e.key === "ArrowUp" ? at - 1 :
      e.key === "Home" ? 0 : e.key === "End" ? cards.length - 1 : -2;
    if (to === -2) { return; }
    e.preventDefault();
    to = Math.max(0, Math.min(cards.length - 1, to));
    cards[at].tabIndex = -1;
    cards[to].tabIndex = 0;
    cards[to].focus();
  };

  Play.prototype.drawEnd = function (state) {
    var end = clear(this.end);
    show(end, !!state.score || (state.phase === "over"));
    if (this.analysisTimer) { clearTimeout(this.analysisTimer); this.analysisTimer = null; }
    if (state.phase !== "over") { return; }
    var self = this;
    add(end, el("h2", "", say("score")));
    if (state.score) {
      var lines = add(end, el("ul", "play-lines"));
      state.score.lines.forEach(function (line) { add(lines, el("li", "", line)); });
      var table = add(end, el("table", "play-scores"));
      add(table, el("caption", "", say("play.scores")));
      var head = add(add(table, el("thead")), el("tr"));
      var body = add(add(table, el("tbody")), el("tr"));
      state.seats.forEach(function (seat) {
        var th = add(head, el("th", "", self.seatName(state, seat)));
        th.scope = "col";
        add(body, el("td", "", String(state.score.scores[seat] || 0)));
      });
      add(end, el("h2", "", say("play.analysis")));
      this.analysis = add(end, el("div", "play-analysis", say("play.analysisWait")));
      this.analysis.setAttribute("aria-live", "polite");
      this.fetchAnalysis(state.deal);
    }
    var links = add(end, el("p", "play-links"));
    var link = add(links, el("a", "download", say("play.downloadRecord")));
    link.href = this.api + "/record?deal=" + state.deal;
    link.setAttribute("download", "deal-" + (state.deal + 1) + ".tarot");
    var next = add(links, button("play-next", say("play.next")));
    next.addEventListener("click", function () {
      if (!self.busy) { self.send({ kind: "next" }); }
    });
    this.say(state.score ? state.score.lines[0] : say("play.over"));
  };

  Play.prototype.fetchAnalysis = function (deal) {
    var self = this;
    fetch(this.api + "/analysis?deal=" + deal,
          { credentials: "same-origin", headers: withToken({}) })
      .then(function (r) { return r.json(); }).then(function (a) {
        if (!self.state || self.state.deal !== deal) { return; }
        if (a.refused) { clear(self.analysis).textContent = refusedWords(a.refused); return; }
        if (a.status === "running") {
          self.analysisTimer = setTimeout(function () { self.fetchAnalysis(deal); }, 500);
          return;
        }
        self.drawAnalysis(a);
      }).catch(function () { self.drawAnalysis({ status: "failed" }); });
  };

  Play.prototype.drawAnalysis = function (a) {
    var box = clear(this.analysis);
    box.setAttribute("data-status", a.status);
    if (a.status !== "done") {
      box.textContent = say("play.analysisFailed");
      return;
    }
    var costly = a.cards.filter(function (c) { return c.cost !== "0"; });
    if (!costly.length) {
      add(box, el("p", "", say("play.noCost")));
      return;
    }
    var list = add(box, el("ul", "play-costs"));
    costly.forEach(function (c) {
      add(list, el("li", c.changed ? "changed" : "", c.best ?
        say("play.costBest", { trick: c.trick, card: said(c.card), cost: cost(c.cost),
          best: said(c.best) }) :
        say("play.cost", { trick: c.trick, card: said(c.card), cost: cost(c.cost) })));
    });
  };

  function startPlay(main) {
    var config = readData("tarot-play") || {};
    var box = clear(main);
    add(box, el("h1", "", doc.title));
    return new Play(box, config);
  }
  /* play: end */

  /* index: begin (a page of one deal is written without this part) */
  /* --- the archive index ---------------------------------------------------------------- */

  function fold(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  /* A row of the index (number, file:deal, event, round, table, contract, taker, outcome,
     margin, score, errors, warnings, date, text searched, flags) as the cells shown:
     [text, class, sort key]. */
  function indexCells(r) {
    var outcome = r[7] ? say("outcome." + r[7]) : "";
    var result = r[8] === null ? outcome : say("resultBy", { outcome: outcome,
      margin: Math.abs(r[8]) });
    (r[14] || []).forEach(function (f) { result += " · " + say("flag." + f); });
    var taker = r[6].replace(/^\w+/, function (id) { return WORDS["seat." + id] || id; });
    var faults = [];
    if (r[10]) { faults.push(sayN("errors", r[10])); }
    if (r[11]) { faults.push(sayN("warnings", r[11])); }
    return [
      [String(r[0]), "c-n", r[0]], [r[12] || "", "c-date wide", r[12] || ""],
      [r[1], "c-file wide", r[1]], [r[2], "c-event wide", r[2]],
      [r[3], "c-round wide", parseFloat(r[3])], [r[4], "c-table wide", parseFloat(r[4])],
      [r[5], "c-contract", r[5]], [taker, "c-taker", taker],
      [result, "c-result " + r[7], r[8] === null ? NaN : r[8]],
      [r[9] === null ? "" : (r[9] > 0 ? "+" : "") + r[9], "c-score wide",
        r[9] === null ? NaN : r[9]],
      [faults.join(", "), "c-faults" + (r[10] ? " bad" : r[11] ? " warn" : ""),
        r[10] * 100000 + r[11]]
    ];
  }

  /* The index: a table of every deal, filtered as you type and sorted by any column. Only
     the rows in view are in the page (spacer rows stand for the others), so ten thousand
     deals open, filter and sort at once. */
  function Index(root, rows, pages) {
    var self = this;
    this.root = root;
    this.rows = rows;
    this.pages = pages;
    this.table = root.querySelector("table.deals");
    this.body = this.table.tBodies[0];
    this.count = root.querySelector(".count");
    this.input = root.querySelector("input.filter");
    this.order = rows.map(function (r, i) { return i; });
    this.shown = this.order;
    this.texts = null;
    this.keys = {};
    this.rowHeight = 0;
    this.span = null;
    this.pending = 0;
    this.sortCol = -1;
    this.sortDir = 1;
    this.input.addEventListener("input", function () {
      if (self.filterPending) { return; }
      self.filterPending = requestAnimationFrame(function () {
        self.filterPending = 0;
        self.filter();
      });
    });
    var heads = this.table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      var b = th.querySelector("button");
      if (b) { b.addEventListener("click", function () { self.sort(col, th); }); }
    });
    this.buildColumns();
    /* the filters and the sort come back from the address (Back returns to them) */
    var h = readHash();
    this.input.value = h.q || "";
    this.columns.forEach(function (c) {
      if (h[c.name] !== undefined) { c.select.value = h[c.name]; }
    });
    var later = function () {
      if (self.pending) { return; }
      self.pending = requestAnimationFrame(function () {
        self.pending = 0;
        self.render(false);
      });
    };
    window.addEventListener("scroll", later, { passive: true });
    window.addEventListener("resize", function () { self.rowHeight = 0; later(); });
    window.addEventListener("beforeprint", function () { self.render(false, true); });
    window.addEventListener("afterprint", function () { self.render(true); });
    var col = parseInt(h.sort, 10);
    if (heads[col]) {
      this.sort(col, heads[col], h.desc === "1" ? -1 : 1);
    } else {
      this.filter();
    }
  }

  /* The column filters: contract, taker, made or lost, faults; each a list of the
     values the rows hold. */
  Index.prototype.buildColumns = function () {
    var self = this;
    var box = el("div", "column-filters");
    this.root.querySelector(".index-head").appendChild(box);
    var defs = [
      ["contract", function (r) { return r[5]; }, function (v) { return v; }],
      ["taker", function (r) { return r[6]; }, function (v) { return v; }],
      ["result", function (r) { return r[7]; }, function (v) { return say("outcome." + v); }],
      ["faults", function (r) { return r[10] ? "errors" : r[11] ? "warnings" : "none"; },
        function (v) { return say("faults." + v); }]
    ];
    this.columns = defs.map(function (d) {
      var label = add(box, el("label", "", say("column." + d[0]) + " "));
      var select = add(label, el("select"));
      add(select, el("option", "", say("any"))).value = "";
      var seen = {};
      self.rows.forEach(function (r) { seen[d[1](r)] = true; });
      Object.keys(seen).sort().forEach(function (v) {
        if (v) { add(select, el("option", "", d[2](v))).value = v; }
      });
      select.addEventListener("change", function () { self.filter(); });
      return { name: d[0], key: d[1], select: select };
    });
  };

  /* The filters and the sort into the address, at once (replaceState: no new history
     entry a keystroke). */
  Index.prototype.remember = function () {
    if (readHash().deal) { return; }    /* one file holding every deal, showing a deal */
    var parts = [];
    if (this.input.value) { parts.push("q=" + encodeURIComponent(this.input.value)); }
    this.columns.forEach(function (c) {
      if (c.select.value) { parts.push(c.name + "=" + encodeURIComponent(c.select.value)); }
    });
    if (this.sortCol >= 0) { parts.push("sort=" + this.sortCol + (this.sortDir < 0 ? "&desc=1" : "")); }
    var hash = parts.length ? "#" + parts.join("&") : "";
    if (location.hash !== hash && (hash || location.hash.indexOf("=") > 0)) {
      try {
        history.replaceState(null, "", hash || location.pathname + location.search);
      } catch (err) { /* throttled */ }
    }
  };

  Index.prototype.rowEl = function (i, at) {
    var tr = el("tr");
    tr.setAttribute("aria-rowindex", String(at + 2));
    var cells = indexCells(this.rows[i]);
    for (var c = 0; c < cells.length; c += 1) {
      var td = add(tr, el("td", cells[c][1]));
      if (c === 0) {
        var a = add(td, el("a", "", cells[c][0]));
        a.href = this.pages.replace("{n}", cells[c][0]);
      } else {
        td.textContent = cells[c][0];
        if (cells[c][0]) { td.title = cells[c][0]; }
      }
    }
    return tr;
  };

  Index.prototype.spacer = function (rows) {
    var tr = el("tr", "spacer");
    tr.setAttribute("aria-hidden", "true");
    var td = add(tr, el("td"));
    td.colSpan = 11;
    td.style.height = (rows * (this.rowHeight || 30)) + "px";
    return tr;
  };

  /* Draw the rows in view (all of them to print). */
  Index.prototype.render = function (force, all) {
    var n = this.shown.length;
    if (!this.rowHeight && n) {
      clear(this.body);
      var probe = add(this.body, this.rowEl(this.shown[0], 0));
      this.rowHeight = probe.getBoundingClientRect().height;
    }
    var first = 0;
    var last = n;
    if (!all) {
      var top = this.body.getBoundingClientRect().top;
      var h = this.rowHeight || 30;
      first = Math.max(0, Math.floor(-top / h) - 15);
      last = Math.min(n, first + Math.ceil(window.innerHeight / h) + 30);
      first = Math.max(0, Math.min(first, last - Math.ceil(window.innerHeight / h) - 30));
    }
    var span = first + ":" + last + ":" + n;
    if (!force && span === this.span) { return; }
    this.span = span;
    var frag = doc.createDocumentFragment();
    if (first > 0) { frag.appendChild(this.spacer(first)); }
    for (var k = first; k < last; k += 1) { frag.appendChild(this.rowEl(this.shown[k], k)); }
    if (last < n) { frag.appendChild(this.spacer(n - last)); }
    clear(this.body);
    this.body.appendChild(frag);
  };

  Index.prototype.filter = function () {
    var rows = this.rows;
    if (!this.texts) {
      this.texts = rows.map(function (r) {
        return fold(indexCells(r).map(function (c) { return c[0]; }).join(" ") + " " +
          (r[13] || ""));
      });
    }
    var words = fold(this.input.value).split(/\s+/).filter(Boolean);
    var texts = this.texts;
    var cols = this.columns.filter(function (c) { return c.select.value; });
    this.shown = !words.length && !cols.length ? this.order : this.order.filter(function (i) {
      for (var w = 0; w < words.length; w += 1) {
        if (texts[i].indexOf(words[w]) < 0) { return false; }
      }
      for (var c = 0; c < cols.length; c += 1) {
        if (cols[c].key(rows[i]) !== cols[c].select.value) { return false; }
      }
      return true;
    });
    this.remember();
    this.count.textContent = words.length || cols.length ?
      say("shownOf", { shown: this.shown.length, deals: sayN("deals", rows.length) }) :
      sayN("deals", rows.length);
    this.render(true);
  };

  Index.prototype.sort = function (col, th, wanted) {
    var numeric = th.getAttribute("data-type") === "num";
    var dir = wanted || (this.sortCol === col && this.sortDir === 1 ? -1 : 1);
    this.sortCol = col;
    this.sortDir = dir;
    var keys = this.keys[col];
    if (!keys) {
      keys = this.keys[col] = this.rows.map(function (r) {
        var v = indexCells(r)[col][2];
        return numeric ? (isNaN(v) ? -Infinity : v) : fold(String(v));
      });
    }
    this.order = this.rows.map(function (r, i) { return i; }).sort(function (a, b) {
      var x = keys[a];
      var y = keys[b];
      return (x < y ? -dir : x > y ? dir : 0) || a - b;
    });
    Array.prototype.forEach.call(this.table.tHead.rows[0].cells, function (cell) {
      cell.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    this.filter();
  };

  /* The start of an index or of one file holding every deal (false: the page goes on to
     a deal's page). */
  function startIndex(page, body, main) {
    if (page === "index") {
      var pages = body.getAttribute("data-pages") || "";
      var h = readHash();
      if (h.deal && /^[0-9]+$/.test(h.deal) && pages) {
        location.replace(pages.replace("{n}", h.deal) + location.hash);
        return false;
      }
      listing = new Index(doc.getElementById("index"), readData("tarot-index"), pages);
    } else if (page === "book") {
      var index = doc.getElementById("index");
      var shownDeal = null;
      var showBook = function () {
        var hh = readHash();
        var data = hh.deal && /^[0-9]+$/.test(hh.deal) ? readData("deal-" + hh.deal) : null;
        show(index, !data);
        show(main, !!data);
        if (!data) {
          viewer = null;
          shownDeal = null;
          if (listing) { listing.render(true); }
          return;
        }
        if (shownDeal !== hh.deal) {
          startDeal(main, data);
          shownDeal = hh.deal;
          window.scrollTo(0, 0);
        } else {
          viewer.applyHash(hh);
        }
      };
      showBook();
      listing = new Index(index, readData("tarot-index"), body.getAttribute("data-pages"));
      window.addEventListener("hashchange", showBook);
    }
    return true;
  }

  var listing = null;

  /* index: end */
  /* --- start ------------------------------------------------------------------------------ */

  var viewer = null;

  function readData(id) {
    var node = doc.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function startDeal(root, data) {
    viewer = new Viewer(root, data);
    viewer.applyHash(readHash());
  }

  function start() {
    WORDS = readData("tarot-words") || {};
    var body = doc.body;
    var page = body.getAttribute("data-page");
    var main = doc.getElementById("tarot");
    if (page === "deal") {
      startDeal(main, readData("tarot-data"));
      window.addEventListener("hashchange", function () { viewer.applyHash(readHash()); });
    } else if (page === "play" && typeof startPlay === "function") {
      startPlay(main);
    } else if (typeof startIndex === "function") {
      if (startIndex(page, body, main) === false) { return; }
    }
    doc.addEventListener("keydown", function (e) {
      if (!viewer || e.altKey || e.ctrlKey || e.metaKey) { return; }
      var t = e.target;
      var tag = t && t.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) {
        return;
      }
      if (viewer.key(e)) { e.preventDefault(); }
    });
    body.setAttribute("data-ready", "1");
    if (window.performance && performance.mark) { performance.mark("tarot-ready"); }
  }

  if (doc.readyState === "loading") {
    doc.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
