import { useEffect, useState } from 'preact/hooks';
import { contrastRatio } from '../colour.js';
import './qr-code.css';

type Level = 'L' | 'M' | 'Q' | 'H';
interface QrOptions { size: number; foreground: string; background: string; margin: number; level: Level }

const DEFAULTS: QrOptions = { size: 256, foreground: '#000000', background: '#ffffff', margin: 2, level: 'M' };
const SIZES = [128, 256, 512, 1024];
const LEVELS: Record<Level, string> = { L: 'Low (7 %)', M: 'Medium (15 %)', Q: 'Quartile (25 %)', H: 'High (30 %)' };
/** Below this, or with a light foreground on a dark background, many phone scanners fail. */
const SCANNABLE_CONTRAST = 4;

/**
 * The QR code of a short URL, drawn by the qrcode library in the browser with the chosen size,
 * colours, quiet-zone margin and error-correction level: shown as an image and offered for download
 * as PNG (at the chosen size) and SVG (data URLs, which the CSP allows for images only).
 */
export function QrCode({ url, code }: { url: string; code: string }) {
  const [options, setOptions] = useState(DEFAULTS);
  const [images, setImages] = useState<{ png: string; svg: string }>();
  useEffect(() => {
    let current = true;
    const drawing = {
      errorCorrectionLevel: options.level, margin: options.margin, width: options.size,
      color: { dark: `${options.foreground}ff`, light: `${options.background}ff` },
    };
    // The library is a chunk of its own, loaded when the first code is drawn: a first visit to `/` does not pay for it.
    import('qrcode').then(({ default: QRCode }) => Promise.all([QRCode.toDataURL(url, drawing), QRCode.toString(url, { ...drawing, type: 'svg' })])).then(([png, svg]) => {
      if (current) setImages({ png, svg: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    }, () => { if (current) setImages(undefined); });
    return () => { current = false; };
  }, [url, options]);
  const set = (change: Partial<QrOptions>) => setOptions({ ...options, ...change });
  const contrast = contrastRatio(options.foreground, options.background);
  const readable = contrast >= SCANNABLE_CONTRAST && contrastRatio(options.foreground, '#000000') < contrastRatio(options.background, '#000000');
  return (
    <div class="qr-block">
      {images && (
        <figure class="qr">
          <img src={images.png} width={160} height={160} alt={`QR code for ${url}`} data-testid="qr-image" />
          <figcaption>
            <a href={images.png} download={`${code}.png`}>Download PNG</a>
            <a href={images.svg} download={`${code}.svg`}>Download SVG</a>
          </figcaption>
        </figure>
      )}
      <details class="qr-options">
        <summary>QR code options</summary>
        <div class="qr-fields">
          <div class="field">
            <label for={`qr-size-${code}`}>Size (PNG, pixels)</label>
            <select id={`qr-size-${code}`} value={String(options.size)} onChange={(e) => set({ size: Number(e.currentTarget.value) })}>
              {SIZES.map((size) => <option key={size} value={String(size)}>{size} × {size}</option>)}
            </select>
          </div>
          <div class="field">
            <label for={`qr-fg-${code}`}>Foreground colour</label>
            <input id={`qr-fg-${code}`} type="color" value={options.foreground} onInput={(e) => set({ foreground: e.currentTarget.value })} />
          </div>
          <div class="field">
            <label for={`qr-bg-${code}`}>Background colour</label>
            <input id={`qr-bg-${code}`} type="color" value={options.background} onInput={(e) => set({ background: e.currentTarget.value })} />
          </div>
          <div class="field">
            <label for={`qr-margin-${code}`}>Margin (modules)</label>
            <input id={`qr-margin-${code}`} type="number" min={0} max={10} step={1} value={options.margin}
              onInput={(e) => { const margin = e.currentTarget.valueAsNumber; if (Number.isInteger(margin) && margin >= 0 && margin <= 10) set({ margin }); }} />
          </div>
          <div class="field">
            <label for={`qr-level-${code}`}>Error correction</label>
            <select id={`qr-level-${code}`} value={options.level} onChange={(e) => set({ level: e.currentTarget.value as Level })}>
              {(Object.keys(LEVELS) as Level[]).map((level) => <option key={level} value={level}>{LEVELS[level]}</option>)}
            </select>
          </div>
        </div>
        <p role="status" class={readable ? 'hint' : 'field-error'} data-testid="qr-contrast">
          {readable ? `Contrast ${contrast.toFixed(1)}:1.` : `Contrast ${contrast.toFixed(1)}:1: scanners need a dark code on a light background with more contrast than this.`}
        </p>
        <button type="button" class="secondary" onClick={() => setOptions(DEFAULTS)}>Reset QR options</button>
      </details>
    </div>
  );
}
