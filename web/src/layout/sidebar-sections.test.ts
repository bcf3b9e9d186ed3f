import { describe, expect, it } from 'vitest';
import { arrangeSections, moveSection, setSectionHidden, visibleSections } from './sidebar-sections.ts';

const ids = (sections: Array<{ id: string }>) => sections.map((section) => section.id);

describe('the sidebar layout', () => {
  it('shows every section in the default order, and Admin only to admins', () => {
    expect(ids(visibleSections(undefined, false))).toEqual(['overview', 'keys', 'playground', 'logs', 'usage', 'wallet', 'organisations', 'settings']);
    expect(ids(visibleSections(undefined, true))).toContain('admin');
  });

  it('follows a stored order, ignores unknown ids and appends sections the layout does not name', () => {
    const layout = { order: ['wallet', 'nonsense', 'keys', 'wallet'], hidden: [] };
    expect(ids(visibleSections(layout, false))).toEqual(['wallet', 'keys', 'overview', 'playground', 'logs', 'usage', 'organisations', 'settings']);
  });

  it('hides sections but never Settings', () => {
    let layout = setSectionHidden(undefined, false, 'playground', true);
    layout = setSectionHidden(layout, false, 'settings', true);
    expect(ids(visibleSections(layout, false))).not.toContain('playground');
    expect(ids(visibleSections(layout, false))).toContain('settings');
    expect(arrangeSections(layout, false).find((section) => section.id === 'playground')?.hidden).toBe(true);
    layout = setSectionHidden(layout, false, 'playground', false);
    expect(ids(visibleSections(layout, false))).toContain('playground');
  });

  it('moves a section up and down, and not past either end', () => {
    let layout = moveSection(undefined, false, 'wallet', -1);
    expect(ids(visibleSections(layout, false)).slice(4, 6)).toEqual(['wallet', 'usage']);
    layout = moveSection(layout, false, 'overview', -1);
    expect(ids(visibleSections(layout, false))[0]).toBe('overview');
    layout = moveSection(layout, false, 'settings', 1);
    expect(ids(visibleSections(layout, false)).at(-1)).toBe('settings');
  });

  it('does not let a non-admin move the admin section into view', () => {
    const layout = { order: ['admin', 'keys'], hidden: [] };
    expect(ids(visibleSections(layout, false))).not.toContain('admin');
  });
});
