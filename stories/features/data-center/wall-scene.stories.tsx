import type { Meta, StoryObj } from '@storybook/react-vite';
import { WallScene } from '@/features/data-center/components/wall-scenes';
import { WALL_DESIGN } from '@/features/wall/scale';
import { wallScenes } from './fixtures';

/** A wall scene on the 1920 × 1080 design canvas, shown at half size. Pick the wall theme in the toolbar. */
const meta = {
  title: 'Features/Data centre/Wall scene',
  component: WallScene,
  parameters: { layout: 'fullscreen' },
  args: { data: wallScenes.schoolOverview },
  decorators: [
    (Story) => (
      <div style={{ width: WALL_DESIGN.width / 2, height: WALL_DESIGN.height / 2, overflow: 'hidden' }}>
        <div className="bg-background p-12 text-foreground" style={{ width: WALL_DESIGN.width, height: WALL_DESIGN.height, transform: 'scale(0.5)', transformOrigin: 'top left' }}>
          <Story />
        </div>
      </div>
    ),
  ],
} satisfies Meta<typeof WallScene>;
export default meta;
type Story = StoryObj<typeof meta>;

export const SchoolOverview: Story = { globals: { theme: 'wall' } };
export const GradeComparison: Story = { args: { data: wallScenes.gradeComparison }, globals: { theme: 'wall' } };
export const ClassRanking: Story = { args: { data: wallScenes.classRanking }, globals: { theme: 'wall' } };
export const WeakestItems: Story = { args: { data: wallScenes.weakestItems }, globals: { theme: 'wall' } };
