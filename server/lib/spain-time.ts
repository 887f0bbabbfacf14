/**
 * Days and clock times as people in Spain read them (peninsular time, Europe/Madrid): a filter
 * "from 15/01" means from that midnight there, and an export shows the time of the office.
 */

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Madrid',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

/** The clock time in Spain at an instant, as a Date whose UTC fields hold it (what a spreadsheet cell shows). */
export function spainWallClock(instant: number): Date {
  const p = Object.fromEntries(PARTS.formatToParts(new Date(instant)).map((x) => [x.type, x.value]))
  const ms = instant % 1000
  return new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second), ms < 0 ? ms + 1000 : ms))
}

/** The instant (ms) a day `YYYY-MM-DD` starts in Spain. */
export function spainDayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const asUtc = Date.UTC(y, m - 1, d)
  // The offset at the guess, then again at the result: right across a change of summer time.
  let instant = asUtc - (spainWallClock(asUtc).getTime() - asUtc)
  instant = asUtc - (spainWallClock(instant).getTime() - instant)
  return instant
}

/** The day after `YYYY-MM-DD`, as `YYYY-MM-DD`. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10)
}
