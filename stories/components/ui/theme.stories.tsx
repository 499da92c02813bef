import type { Meta, StoryObj } from '@storybook/react-vite';

// Design tokens of src/styles/theme.css. Switch the toolbar's theme (light / dark / wall) to compare.
const meta = {
  title: 'UI/Theme tokens',
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const pairs = [
  ['bg-background text-foreground', 'background'],
  ['bg-card text-card-foreground', 'card'],
  ['bg-popover text-popover-foreground', 'popover'],
  ['bg-primary text-primary-foreground', 'primary'],
  ['bg-secondary text-secondary-foreground', 'secondary'],
  ['bg-muted text-muted-foreground', 'muted'],
  ['bg-accent text-accent-foreground', 'accent'],
  ['bg-destructive text-destructive-foreground', 'destructive'],
  ['bg-success text-success-foreground', 'success'],
  ['bg-warning text-warning-foreground', 'warning'],
  ['bg-info text-info-foreground', 'info'],
  ['bg-sidebar text-sidebar-foreground', 'sidebar'],
  ['bg-sidebar-accent text-sidebar-accent-foreground', 'sidebar-accent'],
] as const;

const charts = ['bg-chart-1', 'bg-chart-2', 'bg-chart-3', 'bg-chart-4', 'bg-chart-5', 'bg-chart-6', 'bg-chart-7', 'bg-chart-8'] as const;

export const Tokens: Story = {
  render: () => (
    <div className="grid gap-6">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {pairs.map(([cls, name]) => (
          <div key={name} className={`flex h-16 items-end rounded-lg border p-2 font-mono text-xs ${cls}`}>
            {name}
          </div>
        ))}
      </div>
      <div className="flex gap-2">
        {charts.map((cls, i) => (
          <div key={cls} className={`flex size-12 items-end justify-end rounded-md p-1 font-mono text-xs text-white ${cls}`}>
            {i + 1}
          </div>
        ))}
      </div>
      <div className="flex gap-3">
        <div className="size-12 rounded-sm border-2 border-border" />
        <div className="size-12 rounded-md border-2 border-input" />
        <div className="size-12 rounded-lg ring-[3px] ring-ring" />
        <div className="size-12 rounded-xl ring-[3px] ring-ring/50" />
      </div>
    </div>
  ),
};
