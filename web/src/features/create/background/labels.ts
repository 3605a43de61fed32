/** The two built-in backgrounds get fixed, descriptive names. */
export const BUILTIN_LABELS: Record<string, string> = {
  transparent: 'Transparent PNG',
  white: 'Pure white',
}

export function backgroundLabel(bg: { _id: string; name: string; builtin: boolean }): string {
  return (bg.builtin && BUILTIN_LABELS[bg._id]) || bg.name
}
