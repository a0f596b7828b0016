const two = (value: number) => String(value).padStart(2, '0');

/**
 * A moment (ms since the epoch) as `HH:MM:SS` in local time, as the timeline shows it.
 */
export function formatTime(at: number): string {
  const date = new Date(at);
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}
