import type { HLJSApi } from 'highlight.js';

let loading: Promise<HLJSApi> | undefined;

/** highlight.js with the languages people paste most; loaded only when a page shows code. */
function loadHighlighter(): Promise<HLJSApi> {
  loading ??= (async () => {
    const [{ default: hljs }, ...languages] = await Promise.all([
      import('highlight.js/lib/core'),
      import('highlight.js/lib/languages/javascript'),
      import('highlight.js/lib/languages/typescript'),
      import('highlight.js/lib/languages/python'),
      import('highlight.js/lib/languages/bash'),
      import('highlight.js/lib/languages/json'),
      import('highlight.js/lib/languages/css'),
      import('highlight.js/lib/languages/xml'),
      import('highlight.js/lib/languages/sql'),
      import('highlight.js/lib/languages/go'),
      import('highlight.js/lib/languages/rust'),
      import('highlight.js/lib/languages/java'),
      import('highlight.js/lib/languages/yaml'),
      import('highlight.js/lib/languages/markdown'),
    ]);
    const names = ['javascript', 'typescript', 'python', 'bash', 'json', 'css', 'xml', 'sql', 'go', 'rust', 'java', 'yaml', 'markdown'];
    names.forEach((name, index) => hljs.registerLanguage(name, languages[index]!.default));
    hljs.registerAliases(['js', 'jsx'], { languageName: 'javascript' });
    hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
    hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
    hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
    hljs.registerAliases(['py'], { languageName: 'python' });
    hljs.registerAliases(['yml'], { languageName: 'yaml' });
    return hljs;
  })();
  return loading;
}

/** Colours the fenced code blocks inside an element; text is shown first, colour follows. */
export async function highlightCodeBlocks(root: HTMLElement): Promise<void> {
  const blocks = [...root.querySelectorAll<HTMLElement>('pre code[class*="language-"]')];
  if (blocks.length === 0) return;
  const hljs = await loadHighlighter();
  for (const block of blocks) {
    const language = /language-([\w-]+)/.exec(block.className)?.[1];
    if (language && hljs.getLanguage(language) && !block.dataset.highlighted) hljs.highlightElement(block);
  }
}
