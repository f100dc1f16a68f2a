// The simulated account world: organizations, their API keys, workspaces, scorecards and
// guidelines. `defaultFixture()` is the one the demo and most tests use.
import { draw, drawInt, uuidFrom } from './hash';

export type CreativeType = 'VIDEO' | 'IMAGE' | 'ANIMATED_IMAGE';
export type Consideration = 'MANDATORY' | 'OPTIONAL';

export interface FixtureGuideline {
  id: number;
  /** Canonical channel id. */
  channel: string;
  name: string;
  /** Human-readable rule text, as shown in score details. */
  rule: string;
  bestPractice: boolean;
  category: string;
  consideration: Consideration;
  /** 1–3. */
  weight: number;
  creativeTypes: CreativeType[];
  criteriaGroups: { id: number; name: string }[];
  /** ISO 8601. */
  dateCreated: string;
  person: { email: string; name: string };
}

export interface FixtureWorkspace {
  id: number;
  name: string;
  /** Canonical channel ids of the workspace's active scorecard; used when an asset names no channels. */
  scorecardChannels: string[];
  /** Applied on top of the organization's guidelines for assets in this workspace. */
  guidelines: FixtureGuideline[];
}

export interface FixtureOrganization {
  /** UUID. */
  id: string;
  name: string;
  apiKey: string;
  workspaces: FixtureWorkspace[];
  /** Organization-global guidelines, applied to every asset of the organization. */
  guidelines: FixtureGuideline[];
  /** Channels scored for an asset with neither channels nor a workspace (or an empty scorecard). */
  defaultChannels: string[];
}

export interface SimulatorFixture {
  organizations: FixtureOrganization[];
}

export const DEMO_API_KEY = 'demo-key-northwind';
export const GLOBEX_API_KEY = 'demo-key-globex';

const creativeTypesAll: CreativeType[] = ['VIDEO', 'IMAGE', 'ANIMATED_IMAGE'];
const moving: CreativeType[] = ['VIDEO', 'ANIMATED_IMAGE'];

interface Template {
  name: string;
  rule: string;
  category: string;
  creativeTypes: CreativeType[];
}

// Index 0 and 1 apply to every creative type and are always selected, so every channel has
// guidelines an image can be scored against.
const templates: readonly Template[] = [
  {
    name: 'Brand Logo Present',
    rule: 'The brand logo is visible in the creative',
    category: 'Branding',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'Call to Action',
    rule: 'A call to action is shown in text or voice-over',
    category: 'Messaging',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'Brand Logo Early',
    rule: 'The brand logo appears in the first 3 seconds',
    category: 'Branding',
    creativeTypes: moving,
  },
  {
    name: 'Motion Early (Video only)',
    rule: 'Motion is detected in the first 3 seconds of video',
    category: 'Attention',
    creativeTypes: ['VIDEO'],
  },
  {
    name: 'Human Presence',
    rule: 'A person appears in the creative',
    category: 'Attention',
    creativeTypes: creativeTypesAll,
  },
  { name: 'Sound On', rule: 'Voice-over or music is present', category: 'Audio', creativeTypes: ['VIDEO'] },
  {
    name: 'Captions for Sound Off',
    rule: 'Supers or captions carry the message when sound is off',
    category: 'Messaging',
    creativeTypes: ['VIDEO'],
  },
  {
    name: 'Product Shown',
    rule: 'The product is shown clearly',
    category: 'Product',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'Vertical Aspect Ratio',
    rule: 'The aspect ratio is 9:16 or 4:5',
    category: 'Format',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'Short Duration (Video only)',
    rule: 'The video is 15 seconds or shorter',
    category: 'Format',
    creativeTypes: ['VIDEO'],
  },
  {
    name: 'Fast Pacing',
    rule: 'The average shot is shorter than 2 seconds',
    category: 'Pacing',
    creativeTypes: ['VIDEO'],
  },
  {
    name: 'Limited Text',
    rule: 'Text covers less than 20% of the frame',
    category: 'Messaging',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'High Contrast',
    rule: 'Key elements stand out against the background',
    category: 'Visuals',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'Brand Name in Audio',
    rule: 'The brand name is said in the voice-over',
    category: 'Branding',
    creativeTypes: ['VIDEO'],
  },
  {
    name: 'Safe Zones',
    rule: 'Text and logos stay inside the platform safe zones',
    category: 'Format',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'Single Message',
    rule: 'One clear message per frame',
    category: 'Messaging',
    creativeTypes: ['IMAGE', 'ANIMATED_IMAGE'],
  },
  {
    name: 'Brand Colours',
    rule: 'Brand colours are used prominently',
    category: 'Branding',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'End Card',
    rule: 'An end card shows brand and call to action in the last 2 seconds',
    category: 'Structure',
    creativeTypes: moving,
  },
];

const workspaceTemplates: readonly Template[] = [
  {
    name: 'Legal Disclaimer Present',
    rule: 'The market-required legal disclaimer is legible',
    category: 'Compliance',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'Approved Brand Font',
    rule: 'All text uses the approved brand typeface',
    category: 'Branding',
    creativeTypes: creativeTypesAll,
  },
  {
    name: 'Local Language Captions',
    rule: 'Captions are in the language of the market',
    category: 'Localisation',
    creativeTypes: ['VIDEO'],
  },
  {
    name: 'Pack Shot at End',
    rule: 'The product pack shot appears in the final scene',
    category: 'Product',
    creativeTypes: moving,
  },
];

const channelsWithGuidelines = [
  'META',
  'TIKTOK',
  'ADWORDS',
  'DV360',
  'SNAPCHAT',
  'LINKEDIN',
  'PINTEREST',
  'X',
  'REDDIT',
] as const;

const criteriaGroups = [
  { id: 501, name: 'Creative Best Practices' },
  { id: 502, name: 'Brand Guidelines' },
];

function orgGuidelines(
  seed: string,
  firstId: number,
  authors: readonly FixtureGuideline['person'][],
): FixtureGuideline[] {
  const out: FixtureGuideline[] = [];
  channelsWithGuidelines.forEach((channel, channelIndex) => {
    const count = drawInt(seed, `count|${channel}`, 8, 15);
    const optional = templates
      .map((t, index) => ({ index, rank: draw(seed, `pick|${channel}|${t.name}`) }))
      .filter((t) => t.index > 1)
      .sort((a, b) => a.rank - b.rank)
      .slice(0, count - 2)
      .map((t) => t.index);
    const chosen = [0, 1, ...optional].sort((a, b) => a - b);
    for (const index of chosen) {
      const t = templates[index] as Template;
      const label = `${channel}|${t.name}`;
      out.push({
        id: firstId + channelIndex * 100 + index,
        channel,
        name: t.name,
        rule: t.rule,
        category: t.category,
        bestPractice: true,
        consideration: draw(seed, `consideration|${label}`) < 0.6 ? 'MANDATORY' : 'OPTIONAL',
        weight: drawInt(seed, `weight|${label}`, 1, 3),
        creativeTypes: [...t.creativeTypes],
        criteriaGroups: [{ ...(criteriaGroups[0] as (typeof criteriaGroups)[number]) }],
        dateCreated: new Date(Date.UTC(2024, 0, 8 + channelIndex, 9, index)).toISOString(),
        person: { ...(authors[index % authors.length] as FixtureGuideline['person']) },
      });
    }
  });
  return out;
}

/**
 * Two or three custom guidelines for the workspace's scorecard channels. The first one reuses
 * the name of an organization guideline with another weight: the live service does show the same
 * name twice for one channel, and clients must not collapse them.
 */
function workspaceGuidelines(
  workspaceId: number,
  channels: readonly string[],
  org: readonly FixtureGuideline[],
  author: FixtureGuideline['person'],
): FixtureGuideline[] {
  const out: FixtureGuideline[] = [];
  const seed = `workspace|${workspaceId}`;
  const base = (channel: string, n: number, t: Template): FixtureGuideline => ({
    id: workspaceId * 100 + n,
    channel,
    // Only the template's wording: a twin passed in as the template must not lend its id.
    name: t.name,
    rule: t.rule,
    category: t.category,
    bestPractice: false,
    consideration: n === 1 ? 'MANDATORY' : draw(seed, `consideration|${n}`) < 0.5 ? 'MANDATORY' : 'OPTIONAL',
    weight: drawInt(seed, `weight|${n}`, 1, 3),
    creativeTypes: [...t.creativeTypes],
    criteriaGroups: [{ ...(criteriaGroups[1] as (typeof criteriaGroups)[number]) }],
    dateCreated: new Date(Date.UTC(2024, 5, 1 + (workspaceId % 28), 14, n)).toISOString(),
    person: { ...author },
  });
  const first = channels[0];
  const twin = org.find((g) => g.channel === first);
  if (first !== undefined && twin !== undefined) {
    out.push({
      ...base(first, 1, twin),
      weight: (twin.weight % 3) + 1,
      rule: `${twin.rule} (workspace standard)`,
    });
  }
  const extra = drawInt(seed, 'extra', 1, 2);
  for (let i = 0; i < extra; i++) {
    const channel = channels[(i + 1) % Math.max(1, channels.length)] ?? first;
    if (channel === undefined) break;
    const t = workspaceTemplates[(workspaceId + i) % workspaceTemplates.length] as Template;
    out.push(base(channel, i + 2, t));
  }
  return out;
}

const northwindWorkspaces: readonly [number, string, string[]][] = [
  [1201, 'Northwind Coffee US', ['META', 'TIKTOK']],
  [1202, 'Northwind Coffee UK', ['META', 'ADWORDS', 'DV360']],
  [1203, 'Northwind Tea DE', ['META', 'PINTEREST']],
  [1204, 'Northwind Tea FR', ['TIKTOK', 'SNAPCHAT']],
  [1205, 'Northwind Snacks US', ['META', 'TIKTOK', 'SNAPCHAT', 'X']],
  [1206, 'Northwind Snacks CA', ['ADWORDS', 'DV360']],
  [1207, 'Northwind Water ES', ['META', 'LINKEDIN']],
  [1208, 'Northwind Water IT', ['TIKTOK', 'PINTEREST', 'REDDIT']],
  [1209, 'Northwind Corporate', ['LINKEDIN', 'X']],
  [1210, 'Northwind Retail Media', ['ADWORDS', 'META']],
  [1211, 'Northwind Seasonal', ['META', 'TIKTOK', 'DV360']],
  [1212, 'Northwind Sandbox', []],
];

export function defaultFixture(): SimulatorFixture {
  const northwindAuthors = [
    { email: 'ana.lima@northwind.example', name: 'Ana Lima' },
    { email: 'tom.becker@northwind.example', name: 'Tom Becker' },
    { email: 'mei.chen@northwind.example', name: 'Mei Chen' },
  ];
  const northwindGlobal = orgGuidelines('northwind', 1000, northwindAuthors);
  const northwind: FixtureOrganization = {
    id: uuidFrom('org', 'northwind'),
    name: 'Northwind Brands',
    apiKey: DEMO_API_KEY,
    defaultChannels: ['META', 'TIKTOK'],
    guidelines: northwindGlobal,
    workspaces: northwindWorkspaces.map(([id, name, channels], i) => ({
      id,
      name,
      scorecardChannels: [...channels],
      guidelines: workspaceGuidelines(
        id,
        channels,
        northwindGlobal,
        northwindAuthors[i % northwindAuthors.length] as FixtureGuideline['person'],
      ),
    })),
  };
  const globexAuthor = { email: 'sam.ortiz@globex.example', name: 'Sam Ortiz' };
  const globexGlobal = orgGuidelines('globex', 5000, [globexAuthor]);
  const globex: FixtureOrganization = {
    id: uuidFrom('org', 'globex'),
    name: 'Globex Retail',
    apiKey: GLOBEX_API_KEY,
    defaultChannels: ['META'],
    guidelines: globexGlobal,
    workspaces: [
      {
        id: 9901,
        name: 'Globex Retail Global',
        scorecardChannels: ['META', 'SNAPCHAT'],
        guidelines: workspaceGuidelines(9901, ['META', 'SNAPCHAT'], globexGlobal, globexAuthor),
      },
    ],
  };
  return { organizations: [northwind, globex] };
}
