import { useLingui } from '@lingui/react/macro';
import { renderAsync } from 'docx-preview';
import { DomViewer } from './DomViewer';
import type { ViewerProps } from './types';

/**
 * A Word document drawn by docx-preview: elements built from the XML, never HTML parsed, so nothing in the file
 * runs. Embedded HTML chunks (which it would put in an iframe) stay out; fonts and images come as data: URLs,
 * which the page's CSP allows.
 */
export default function DocxViewer({ src, downloadUrl, filename }: ViewerProps) {
  const { t } = useLingui();
  return (
    <DomViewer
      src={src}
      downloadUrl={downloadUrl}
      label={t`Document ${filename}`}
      render={async (bytes, target) => {
        await renderAsync(new Blob([bytes]), target, target, { renderAltChunks: false, useBase64URL: true, className: 'docx' });
      }}
    />
  );
}
