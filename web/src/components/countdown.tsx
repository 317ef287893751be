import { useEffect, useState } from 'preact/hooks';

/** Now, re-read every second while mounted. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function remainingText(expiresAt: string, now: number): string {
  const seconds = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
  if (seconds === 0) return 'Expired';
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

/**
 * Time left until `expiresAt`, ticking every second. The ticking text is not a live region (a screen
 * reader would read it every second); the expiry itself is given as a date next to it.
 */
export function Countdown({ expiresAt, now }: { expiresAt: string; now: number }) {
  const text = remainingText(expiresAt, now);
  return (
    <span class="countdown">
      <span class="countdown-label">{text === 'Expired' ? '' : 'Expires in '}</span>
      <time dateTime={expiresAt} title={new Date(expiresAt).toLocaleString()} data-testid="countdown">{text}</time>
    </span>
  );
}
