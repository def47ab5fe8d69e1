// The offline page lists the matches this phone scores (offline.js remembers them), the
// latest used first. Each line names the players and when this phone first scored the
// match, with the time of day where another line has the same day: two matches of the
// same four players are told apart.
(function () {
  "use strict";
  const list = document.getElementById("offline-matches");
  if (!list || !window.tichuOutbox) return;
  const lang = document.documentElement.lang;
  const day = (d) => d.toLocaleDateString(lang, { dateStyle: "medium" });
  window.tichuOutbox.remembered().catch(() => []).then((matches) => {
    matches.sort((a, b) => b.at - a.at);
    const days = matches.map((m) => day(new Date(m.since || m.at)));
    matches.forEach((m, i) => {
      const when = new Date(m.since || m.at);
      const [li, a, names, meta, time] = ["li", "a", "span", "span", "time"].map((t) => document.createElement(t));
      a.href = m.url;
      a.className = "match-item";  // as on the list of matches
      names.className = "teams";
      names.textContent = m.title.replace(/ · Tichu Scorer$/, "");
      meta.className = "meta";
      time.dateTime = when.toISOString();
      time.textContent = days.indexOf(days[i]) === days.lastIndexOf(days[i]) ? days[i]
        : days[i] + ", " + when.toLocaleTimeString(lang, { timeStyle: "short" });
      meta.append(time);
      a.append(names, meta);
      li.append(a);
      list.append(li);
    });
    list.hidden = matches.length === 0;
  });
})();
