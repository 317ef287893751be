import { useEffect, useState } from 'preact/hooks';

/**
 * The QR code of a short URL, drawn by the qrcode library in the browser: shown as an image and
 * offered for download as PNG and SVG (data URLs, which the CSP allows for images only). The library
 * is loaded when the first code is drawn, a chunk of its own, so that a first visit to `/` does not pay for it.
 */
export function QrCode({ url, code }: { url: string; code: string }) {
  const [images, setImages] = useState<{ png: string; svg: string }>();
  useEffect(() => {
    let current = true;
    const options = { errorCorrectionLevel: 'M' as const, margin: 2, width: 256 };
    import('qrcode').then(({ default: QRCode }) => Promise.all([QRCode.toDataURL(url, options), QRCode.toString(url, { ...options, type: 'svg' })])).then(([png, svg]) => {
      if (current) setImages({ png, svg: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    }, () => setImages(undefined));
    return () => { current = false; };
  }, [url]);
  if (!images) return null;
  return (
    <figure class="qr">
      <img src={images.png} width={160} height={160} alt={`QR code for ${url}`} />
      <figcaption>
        <a href={images.png} download={`${code}.png`}>Download PNG</a>
        <a href={images.svg} download={`${code}.svg`}>Download SVG</a>
      </figcaption>
    </figure>
  );
}
