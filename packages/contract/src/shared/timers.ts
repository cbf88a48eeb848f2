// Note: Node and browsers store timer delays as signed 32-bit integers; a longer one fires after about 1 ms.
/** The longest delay a timer can hold, in ms: every configurable time-out and wait is refused above it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
