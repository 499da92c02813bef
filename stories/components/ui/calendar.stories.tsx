import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Calendar } from '@/components/ui/calendar';

const meta = {
  title: 'UI/Calendar',
  component: Calendar,
} satisfies Meta<typeof Calendar>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Single: Story = {
  render: function Render() {
    const [day, setDay] = useState<Date | undefined>(new Date(2026, 2, 9));
    return <Calendar mode="single" selected={day} onSelect={setDay} defaultMonth={new Date(2026, 2)} className="rounded-md border" />;
  },
};

export const WithDropdowns: Story = {
  render: function Render() {
    const [day, setDay] = useState<Date | undefined>(new Date(2013, 8, 1));
    return (
      <Calendar
        mode="single"
        selected={day}
        onSelect={setDay}
        defaultMonth={new Date(2013, 8)}
        captionLayout="dropdown"
        startMonth={new Date(2000, 0)}
        endMonth={new Date(2030, 11)}
        className="rounded-md border"
      />
    );
  },
};
