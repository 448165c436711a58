// The script of every page before the scripts were split, one job per file (issue 33.6): a page
// kept on a phone from then links warten.js and this. It loads the scripts such a page needs
// today, by their plain names (which answer with the current files): the waiting rounds
// (senden.js, after warten.js) and the pages offline (offline.js). Pages of today do not load it.
"use strict";
(function () {
  ["/static/senden.js", "/static/offline.js"].forEach(function (src) {
    if (document.querySelector('script[src^="' + src.replace(/\.js$/, ".") + '"]')) {
      return;
    }
    var s = document.createElement("script");
    s.src = src;
    s.async = false;
    document.head.appendChild(s);
  });
})();
