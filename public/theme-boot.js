// Applies the saved theme before the first paint (index.html loads it synchronously in <head>).
/* global localStorage, matchMedia, document */
(function () {
  try {
    var mode = localStorage.getItem('themeMode') || 'auto';
    var dark = mode === 'dark' || (mode === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  } catch {
    // Storage blocked: the app applies the theme itself once it starts.
  }
})();
