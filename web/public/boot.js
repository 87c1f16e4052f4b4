// Runs before the app: marks a signed-in visit so the static landing shell in index.html stays
// hidden for it (CSS: [data-session] .boot-shell). External, not inline, to keep script-src 'self'.
try {
  var s = JSON.parse(localStorage.getItem('userData') || 'null');
  if (s && s.token) document.documentElement.setAttribute('data-session', '1');
} catch (e) {}
