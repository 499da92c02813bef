/**
 * A list's person column: the name, and under it what tells two of the same name apart (学籍号, class), small and
 * muted. Kept one width so a list of people reads the same on every screen.
 */
export function PersonCell({ name, sub }: { name: string; sub?: string | null }) {
  return (
    <span className="grid min-w-28">
      <span className="font-medium">{name}</span>
      <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">{sub ?? ''}</span>
    </span>
  );
}
