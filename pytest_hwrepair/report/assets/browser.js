// The per-sample browser of an hwrepair report: filters, a sample list and one sample's evidence.
// Every text comes from model answers and candidate programs: it only ever reaches the page as textContent.
(function () {
  "use strict";
  var PAGE = 200;
  var data = JSON.parse(document.getElementById("hwrepair-data").textContent);
  var samples = data.samples, texts = data.texts;
  var FILTERS = ["fixer", "suite", "type", "outcome", "verdict", "category"];
  var shown = PAGE;

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (cls) { node.className = cls; }
    return node;
  }

  function fillFilters() {
    FILTERS.forEach(function (name) {
      var select = document.getElementById("f-" + name);
      var values = {};
      samples.forEach(function (s) { values[String(s[name])] = true; });
      Object.keys(values).sort().forEach(function (v) {
        var option = el("option", v);
        option.value = v;
        select.appendChild(option);
      });
      select.addEventListener("change", function () { shown = PAGE; render(); });
    });
    document.getElementById("f-text").addEventListener("input", function () { shown = PAGE; render(); });
    document.getElementById("f-final").addEventListener("change", function () { shown = PAGE; render(); });
    document.getElementById("more").addEventListener("click", function () { shown += PAGE; render(); });
  }

  function matches(s) {
    for (var i = 0; i < FILTERS.length; i++) {
      var value = document.getElementById("f-" + FILTERS[i]).value;
      if (value !== "" && String(s[FILTERS[i]]) !== value) { return false; }
    }
    if (document.getElementById("f-final").checked && !s.final) { return false; }
    var text = document.getElementById("f-text").value.toLowerCase();
    return text === "" || (s.case + "::" + s.bug + " " + s.nodeid).toLowerCase().indexOf(text) >= 0;
  }

  function render() {
    var body = document.getElementById("sample-rows");
    while (body.firstChild) { body.removeChild(body.firstChild); }
    var hits = samples.filter(matches);
    hits.slice(0, shown).forEach(function (s) {
      var row = el("tr");
      row.dataset.index = String(samples.indexOf(s));
      [s.fixer, s.domain + "/" + s.suite, s.type, s.case + "::" + s.bug, s.sample,
       s.iteration === null ? "" : s.iteration, s.outcome].forEach(function (v) { row.appendChild(el("td", v)); });
      row.appendChild(el("td", s.verdict, "v-" + s.verdict));
      row.appendChild(el("td", s.category));
      row.appendChild(el("td", texts[s.summary]));
      row.addEventListener("click", function () { showDetail(s, row); });
      body.appendChild(row);
    });
    document.getElementById("count").textContent = hits.length + " of " + samples.length + " samples" +
      (hits.length > shown ? " (first " + shown + " listed)" : "");
    document.getElementById("more").hidden = hits.length <= shown;
  }

  function block(title, text, diff) {
    var wrap = el("div");
    wrap.appendChild(el("h4", title));
    if (!text) { wrap.appendChild(el("p", "(none saved)", "note")); return wrap; }
    var pre = el("pre");
    text.split("\n").forEach(function (line) {
      var cls = diff && line.charAt(0) === "+" ? "add" : diff && line.charAt(0) === "-" ? "del" : "";
      pre.appendChild(el("span", line + "\n", cls));
    });
    wrap.appendChild(pre);
    return wrap;
  }

  function showDetail(s, row) {
    var old = document.querySelector("#sample-rows tr.selected");
    if (old) { old.classList.remove("selected"); }
    row.classList.add("selected");
    var detail = document.getElementById("detail");
    while (detail.firstChild) { detail.removeChild(detail.firstChild); }
    detail.hidden = false;
    detail.appendChild(el("h3", s.nodeid || (s.case + "::" + s.bug)));
    var facts = "fixer " + s.fixer + " | outcome " + s.outcome + " | verdict " + s.verdict + " | category " +
      s.category + " | strong " + (s.strong === null ? "n/a" : s.strong) + " | sample " + s.sample +
      (s.iteration === null ? "" : " | iteration " + s.iteration) + (s.stop ? " | stop " + s.stop : "") +
      (s.speedup === null ? "" : " | speedup " + s.speedup) + " | run " + s.run + " | key " + s.key;
    detail.appendChild(el("p", facts, "facts"));
    var link = el("a", "link to this sample", "permalink");
    link.href = "#sample=" + encodeURIComponent(s.key);
    detail.appendChild(link);
    detail.appendChild(el("p", texts[s.summary], "summary"));
    detail.appendChild(block("candidate diff", texts[s.diff], true));
    detail.appendChild(block("oracle log (tail)", texts[s.log], false));
    detail.appendChild(block("prompt", texts[s.prompt], false));
    detail.appendChild(block("raw response", texts[s.response], false));
  }

  // #sample=KEY: clear the filters, list the sample, open it and scroll to it.
  function follow() {
    var hash = window.location.hash;
    if (hash.indexOf("#sample=") !== 0) { return; }
    var key = decodeURIComponent(hash.slice(8)), index = -1;
    for (var i = 0; i < samples.length; i++) {  // the final attempt where a sample has several
      if (samples[i].key === key && (index < 0 || samples[i].final)) { index = i; }
    }
    if (index < 0) { document.getElementById("count").textContent = "no sample with key " + key; return; }
    FILTERS.forEach(function (name) { document.getElementById("f-" + name).value = ""; });
    document.getElementById("f-text").value = "";
    document.getElementById("f-final").checked = false;
    shown = Math.max(PAGE, Math.ceil((index + 1) / PAGE) * PAGE);
    render();
    var row = document.querySelector('#sample-rows tr[data-index="' + index + '"]');
    showDetail(samples[index], row);
    row.scrollIntoView({block: "start"});
  }

  fillFilters();
  render();
  follow();
  window.addEventListener("hashchange", follow);
  document.body.dataset.ready = "1";
})();
