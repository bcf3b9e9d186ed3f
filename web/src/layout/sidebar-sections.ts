// The sidebar's sections and a user's layout of them (order and visibility, kept on the server in the
// user's settings). Pure functions, so the rules are tested without a browser: unknown ids in a stored
// layout are ignored, sections the layout does not mention (added in a later release) are appended, and
// Settings can never be hidden (it is where a hidden section is brought back).

interface SidebarSection {
  id: string;
  label: string;
  path: string;
  adminOnly?: boolean;
}

export interface SidebarLayout {
  order: string[];
  hidden: string[];
}

const SIDEBAR_SECTIONS: readonly SidebarSection[] = [
  { id: 'overview', label: 'Overview', path: '/' },
  { id: 'keys', label: 'Keys', path: '/keys' },
  { id: 'playground', label: 'Playground', path: '/playground' },
  { id: 'logs', label: 'Logs', path: '/logs' },
  { id: 'usage', label: 'Usage', path: '/usage' },
  { id: 'wallet', label: 'Wallet', path: '/wallet' },
  { id: 'organisations', label: 'Organisations', path: '/orgs' },
  { id: 'settings', label: 'Settings', path: '/settings' },
  { id: 'admin', label: 'Admin', path: '/admin/users', adminOnly: true },
];

const ALWAYS_VISIBLE = new Set(['settings']);

/** Every section the user may see, in the user's order; `hidden` ones flagged, not removed. */
export function arrangeSections(layout: SidebarLayout | null | undefined, isAdmin: boolean): Array<SidebarSection & { hidden: boolean }> {
  const available = SIDEBAR_SECTIONS.filter((section) => isAdmin || !section.adminOnly);
  const byId = new Map(available.map((section) => [section.id, section]));
  const ordered: SidebarSection[] = [];
  for (const id of layout?.order ?? []) {
    const section = byId.get(id);
    if (section && !ordered.includes(section)) ordered.push(section);
  }
  for (const section of available) if (!ordered.includes(section)) ordered.push(section);
  const hidden = new Set(layout?.hidden ?? []);
  return ordered.map((section) => ({ ...section, hidden: hidden.has(section.id) && !ALWAYS_VISIBLE.has(section.id) }));
}

export function visibleSections(layout: SidebarLayout | null | undefined, isAdmin: boolean): SidebarSection[] {
  return arrangeSections(layout, isAdmin).filter((section) => !section.hidden);
}

/** Moves one section up (-1) or down (+1) and returns the new layout. */
export function moveSection(layout: SidebarLayout | null | undefined, isAdmin: boolean, id: string, direction: -1 | 1): SidebarLayout {
  const order = arrangeSections(layout, isAdmin).map((section) => section.id);
  const index = order.indexOf(id);
  const target = index + direction;
  if (index < 0 || target < 0 || target >= order.length) return { order, hidden: layout?.hidden ?? [] };
  [order[index], order[target]] = [order[target]!, order[index]!];
  return { order, hidden: layout?.hidden ?? [] };
}

export function setSectionHidden(layout: SidebarLayout | null | undefined, isAdmin: boolean, id: string, hidden: boolean): SidebarLayout {
  const order = arrangeSections(layout, isAdmin).map((section) => section.id);
  const current = new Set(layout?.hidden ?? []);
  if (hidden && !ALWAYS_VISIBLE.has(id)) current.add(id);
  else current.delete(id);
  return { order, hidden: [...current] };
}
