import type { Box } from './placement';

/** Below this zoom a node's text cannot be read: fitting never goes further out. */
export const MIN_FIT_ZOOM = 0.75;
export const MAX_FIT_ZOOM = 1;
/** Room kept around the flow, in screen pixels. */
export const FIT_PADDING = 32;

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/**
 * The view of a flow: all of it when it can be read that way, centred; otherwise at the smallest readable
 * zoom, starting where the flow starts (`start`, its input node, at the left; the top of the flow, or the
 * start's row when the flow is taller than the screen). Sizes are in screen pixels, `bounds` and `start`
 * in flow coordinates.
 */
export function fitViewport(
  bounds: Box,
  screen: { width: number; height: number },
  start: Box | null = null,
  { minZoom = MIN_FIT_ZOOM, maxZoom = MAX_FIT_ZOOM, padding = FIT_PADDING } = {},
): Viewport {
  const roomX = Math.max(1, screen.width - 2 * padding);
  const roomY = Math.max(1, screen.height - 2 * padding);
  const whole = Math.min(roomX / Math.max(1, bounds.width), roomY / Math.max(1, bounds.height));
  const zoom = Math.min(maxZoom, Math.max(minZoom, whole));
  const width = bounds.width * zoom;
  const height = bounds.height * zoom;

  const x =
    width <= roomX
      ? (screen.width - width) / 2 - bounds.x * zoom
      : padding - Math.min(bounds.x, start?.x ?? bounds.x) * zoom;
  let y: number;
  if (height <= roomY) y = (screen.height - height) / 2 - bounds.y * zoom;
  else if (start && start.y + start.height > bounds.y + roomY / zoom)
    // The start would be below the screen with the top aligned: centre on it instead.
    y = screen.height / 2 - (start.y + start.height / 2) * zoom;
  else y = padding - bounds.y * zoom;
  return { x: Math.round(x), y: Math.round(y), zoom };
}
