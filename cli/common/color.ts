// Colour only on a terminal, and never when the user said no: --no-color, or NO_COLOR set to
// anything but the empty string (no-color.org).
export function wantsColor(stream: { isTTY?: boolean }, noColorFlag: boolean, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !noColorFlag && !env.NO_COLOR;
}
