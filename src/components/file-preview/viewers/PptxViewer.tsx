import { useLingui } from '@lingui/react/macro';
import { init } from 'pptx-preview';
import { DomViewer } from './DomViewer';
import type { ViewerProps } from './types';

/** Slides are drawn at this width (and 16:9) at most, and narrower where the page is narrower. */
const SLIDE_MAX_WIDTH = 960;

/** A presentation's slides, one under the other, drawn as DOM by pptx-preview. */
export default function PptxViewer({ src, downloadUrl, filename }: ViewerProps) {
  const { t } = useLingui();
  return (
    <DomViewer
      src={src}
      downloadUrl={downloadUrl}
      label={t`Slides of ${filename}`}
      render={async (bytes, target) => {
        const width = Math.min(SLIDE_MAX_WIDTH, target.parentElement?.clientWidth ?? SLIDE_MAX_WIDTH);
        const previewer = init(target, { width, height: Math.round((width * 9) / 16), mode: 'list' });
        await previewer.preview(bytes.buffer);
        return () => previewer.destroy();
      }}
    />
  );
}
