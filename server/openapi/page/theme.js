// The app's theme rule (index.html): the stored themeMode ('light' | 'dark' | 'auto'), else the system's preference.
// Swagger UI shows its dark theme under html.dark-mode; docs.css maps both themes onto the app's colours.
(function () {
  var query = window.matchMedia('(prefers-color-scheme: dark)');
  function storedMode() {
    try {
      return window.localStorage.getItem('themeMode') || 'auto';
    } catch {
      return 'auto';
    }
  }
  function apply() {
    var mode = storedMode();
    var dark = mode === 'dark' || (mode !== 'light' && query.matches);
    document.documentElement.classList.toggle('dark-mode', dark);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }
  apply();
  query.addEventListener('change', apply);
  // The app open in another tab changed the theme.
  window.addEventListener('storage', function (event) {
    if (event.key === 'themeMode') apply();
  });
})();
