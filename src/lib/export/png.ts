/** A picture of an element (the rendered preview), at twice the screen's density, on the page background. */
export async function elementToPng(element: HTMLElement): Promise<Blob> {
  const { domToBlob } = await import('modern-screenshot');
  const background = getComputedStyle(document.documentElement).getPropertyValue('--surface').trim() || '#ffffff';
  return domToBlob(element, { type: 'image/png', scale: 2, backgroundColor: background });
}
