import { whenSettled } from '../idle';

/**
 * Colours the fenced code blocks inside an element once the page has settled: text is shown first, colour follows.
 * On a first load the highlighter (this module's colouring code, highlight.js's core, each language's grammar)
 * loads and compiles after what the visitor came for; later it starts in the next idle moment.
 */
export function highlightCodeBlocks(root: HTMLElement): void {
  whenSettled(() => void import('./code-colours').then(({ colourBlocks }) => colourBlocks(root), () => undefined));
}
