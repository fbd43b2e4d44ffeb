/** Line and column, both from 1. */
export interface LinePosition {
  line: number;
  column: number;
}

/**
 * Where each offset of `text` stands, lines starting after each line feed: the lines are found
 * once, an offset's line then by halving. The YAML reader and import's XML reader locate values
 * this way alike.
 */
export function linePositions(text: string): (offset: number) => LinePosition {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  };
}
