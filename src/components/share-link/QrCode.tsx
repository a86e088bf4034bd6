import { useEffect, useRef, useState } from 'react';
import type QRCodeStyling from 'qr-code-styling';

interface QrCodeProps {
  data: string;
  size?: number;
  label: string;
  /** Receives the generator once drawn, so a caller can offer a download. */
  onReady?: (qr: QRCodeStyling) => void;
}

/** A QR code for a link; the library loads only when a code is shown. */
export function QrCode({ data, size = 180, label, onReady }: QrCodeProps) {
  const container = useRef<HTMLDivElement>(null);
  const [qr, setQr] = useState<QRCodeStyling>();

  useEffect(() => {
    let cancelled = false;
    void import('qr-code-styling').then(({ default: QRCode }) => {
      if (cancelled || !container.current) return;
      const code = new QRCode({
        width: size,
        height: size,
        type: 'svg',
        data,
        margin: 8,
        qrOptions: { errorCorrectionLevel: 'M' },
        dotsOptions: { type: 'rounded', color: '#1b1f24' },
        cornersSquareOptions: { type: 'extra-rounded', color: '#2457c5' },
        backgroundOptions: { color: '#ffffff' },
      });
      container.current.replaceChildren();
      code.append(container.current);
      setQr(code);
      onReady?.(code);
    });
    return () => {
      cancelled = true;
    };
  }, [data, size, onReady]);

  return <div ref={container} role="img" aria-label={label} data-ready={qr ? 'true' : 'false'} style={{ width: size, height: size }} />;
}
