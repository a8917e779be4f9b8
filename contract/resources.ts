// The resources of SPEC.md ("Resources and their fields"), each a named component ($id).
// Openness follows SPEC.md exactly: only objects it marks "open" accept extra members.
// Response members are required where SPEC.md lists them; the few that only exist when something
// happened (a phase change, a reflection) are optional, and docs/interface-choices.md says why.
import type { Static } from 'typebox';
import { closed, open, map, ref, Str, Num, Bool, Opt, Arr, Seen } from './kit.ts';
import { inputRef } from './input.ts';

const unit = (description: string) => Num({ description });

// ---- Vectors ----
/** PAD space of Mehrabian; SPEC.md shows the lower bound -1; we read the space as [-1, 1]. */
export const VAD = closed(
  { V: Num({ minimum: -1, maximum: 1 }), A: Num({ minimum: -1, maximum: 1 }), D: Num({ minimum: -1, maximum: 1 }) },
  { $id: 'VAD', description: 'Valence, arousal, dominance.' },
);
export const Appraisal = closed(
  {
    goal_relevance: Num(), goal_congruence: Num(), expectedness: Num(),
    controllability: Num(), agency: Num(), norm_compatibility: Num(),
  },
  { $id: 'Appraisal' },
);
export const NeedState = closed(
  { autonomy: Num(), competence: Num(), relatedness: Num() },
  { $id: 'NeedState', description: 'Self-determination needs; also used as needsDelta.' },
);
export const DiscreteEmotion = closed(
  { primary: Str(), secondary: Str(), intensity: Num() },
  { $id: 'DiscreteEmotion' },
);

// ---- World definition ----
export const Fact = closed(
  { id: Str(), content: Str(), visibility: Seen('public'), knownBy: Arr(Str()) },
  { $id: 'Fact' },
);
export const Phase = closed(
  { description: Str(), normMapOverride: map(Num()) },
  { $id: 'Phase' },
);
export const Trigger = closed(
  {
    id: Str(),
    condition: closed({ type: Seen('event_count'), eventType: Str(), threshold: Num() }),
    targetPhase: Str(),
    oneShot: Bool(),
  },
  { $id: 'Trigger' },
);
export const TopologyConnection = closed(
  { from: Str(), to: Str(), distance: Num(), traversalTime: Num(), accessibility: Str(), bidirectional: Bool() },
  { $id: 'TopologyConnection' },
);
export const WorldIdentity = open({ name: Str(), description: Str() }, { $id: 'WorldIdentity' });
export const WorldRules = closed(
  {
    physics: map(Bool()),
    social: closed({ norms: Arr(Str()), taboos: Arr(Str()), hierarchies: Arr(Str()) }),
    narrative: open({}),
  },
  { $id: 'WorldRules' },
);
export const WorldCulture = closed(
  {
    coreValues: Arr(Str()),
    normMap: map(Num()),
    socialProtocol: closed({ greetingStyle: Str(), addressSystem: Str(), tabooTopics: Arr(Str()) }),
  },
  { $id: 'WorldCulture' },
);
export const WorldDefinition = open(
  {
    identity: ref(WorldIdentity),
    rules: ref(WorldRules),
    culture: ref(WorldCulture),
    topology: closed({ connections: Arr(ref(TopologyConnection)) }),
    time: closed({ type: Seen('realtime'), ratio: Num() }),
    knowledge: closed({ facts: Arr(ref(Fact)), defaultVisibility: Seen('public') }),
    progression: closed({ initialPhase: Str(), phases: map(ref(Phase)), triggers: Arr(ref(Trigger)) }),
  },
  { $id: 'WorldDefinition' },
);
export const World = closed(
  {
    id: Str(), tenantId: Str(), definition: ref(WorldDefinition), engineVersion: Str(),
    createdAt: unit('Creation time; the reference uses milliseconds since the epoch.'),
  },
  { $id: 'World' },
);

// ---- Entities, spaces, relationships ----
export const EntityProfile = closed(
  { displayName: Str(), role: Str(), description: Str(), personalityHints: Str() },
  { $id: 'EntityProfile' },
);
export const Entity = closed(
  { id: Str(), name: Str(), type: Seen('user', 'persona'), profile: ref(EntityProfile), spaceId: Str() },
  { $id: 'Entity' },
);
export const Space = closed(
  { id: Str(), name: Str(), type: Seen('physical'), capacity: Num() },
  { $id: 'Space' },
);
export const WorldRelationship = closed(
  { type: Seen('stranger'), strength: Num(), trust: Num() },
  { $id: 'WorldRelationship' },
);
export const PersonaRelationship = closed(
  {
    entityId: Str(), trust: Num(), intimacy: Num(), interactionCount: Num(),
    attachmentStyle: Str(), lastInteraction: Num(),
  },
  { $id: 'PersonaRelationship' },
);

// ---- Progression, environment, interaction ----
export const PhaseHistoryEntry = closed(
  // exitedAt and triggerId are absent for the phase still current and for the initial phase.
  { phase: Str(), enteredAt: Num(), exitedAt: Opt(Num()), triggerId: Opt(Str()) },
  { $id: 'PhaseHistoryEntry' },
);
export const ProgressionState = closed(
  {
    currentPhase: Str(), elapsedTime: Num(), eventCounts: map(Num()),
    phaseHistory: Arr(ref(PhaseHistoryEntry)), firedTriggerIds: Arr(Str()),
    triggers: Arr(ref(Trigger)), phases: map(ref(Phase)),
  },
  { $id: 'ProgressionState' },
);
export const Environment = open(
  { atmosphere: Str(), lighting: Str(), soundscape: Arr(Str()), weather: Str(), timeOfDay: Str() },
  { $id: 'Environment' },
);
export const InteractionSettings = closed(
  { groupAwareness: Bool(), emotionalContagion: Bool(), propagation: Seen('none') },
  { $id: 'InteractionSettings' },
);

// ---- Events ----
export const Stimulus = closed(
  {
    bodyBudgetDelta: Opt(Num()), vadOverride: Opt(ref(VAD)), vadDelta: Opt(ref(VAD)),
    needsDelta: Opt(ref(NeedState)), soulStageForce: Opt(Num()), catastropheAlphaDelta: Opt(Num()),
    dampingOverride: Opt(Num()),
  },
  { $id: 'Stimulus', description: 'Every member is optional: a stimulus applies what it carries.' },
);
// An event is kept and shown as it was dispatched. A partial appraisal is completed by each persona
// that feels it (by its own appraisal), not once for the event, so the event's own appraisal is the
// Input form (SPEC.md's Event names the type, not which members are always there). A stimulus's
// vectors are sent whole (the operations require them), so its form is Stimulus.
const eventMembers = {
  spaceId: Opt(Str()), timestamp: Opt(Num()), sourceEntity: Opt(Str()), targetEntity: Opt(Str()),
  payload: Opt(open({})), appraisal: Opt(inputRef(Appraisal)), stimulus: Opt(ref(Stimulus)),
};
export const Event = closed(
  { type: Str({ minLength: 1 }), ...eventMembers },
  { $id: 'Event', description: 'An event; only type is required (an event may concern no single entity or space).' },
);
/** A pending event of a standalone persona: an Event with additional open members. */
export const PendingEvent = open({ type: Str({ minLength: 1 }), ...eventMembers }, { $id: 'PendingEvent' });

// ---- Entity responses ----
export const SocialUpdate = closed(
  { entityId: Str(), field: Str(), oldValue: Num(), newValue: Num() },
  { $id: 'SocialUpdate' },
);
export const MemoryEpisode = closed(
  {
    id: Str(), timestamp: Num(), sourceEntity: Str(), context: Str(), appraisal: ref(Appraisal),
    emotionSnapshot: ref(VAD), intensity: Num(), importance: Num(),
  },
  { $id: 'MemoryEpisode' },
);
export const EntityResponse = closed(
  {
    emotion: ref(VAD),
    discrete: ref(DiscreteEmotion),
    socialUpdates: Arr(ref(SocialUpdate)),
    memoryEpisode: Opt(ref(MemoryEpisode)),
    reflectionPrompt: Opt(closed({ system: Str(), user: Str() })),
    stageTransition: Opt(Str()),
    maskExposure: Opt(closed({ integrity: Num(), exposed: Bool(), triggers: Arr(Str()) })),
    goalChanges: closed({ achieved: Arr(Str()), abandoned: Arr(Str()), activated: Arr(Str()) }),
    text: Str(),
  },
  { $id: 'EntityResponse' },
);
export const AffectedItem = closed({ entityName: Str(), response: ref(EntityResponse) }, { $id: 'AffectedItem' });

// ---- Personas ----
export const Goal = closed(
  { id: Str(), content: Str(), priority: Num(), mutable: Bool(), status: Seen('active') },
  { $id: 'Goal' },
);
export const Personality = closed(
  { O: Num(), C: Num(), E: Num(), A: Num(), N: Num(), H: Num() },
  { $id: 'Personality', description: 'Big Five plus HEXACO honesty-humility; the reference reads them on [0, 1].' },
);
export const PersonaIdentity = closed(
  { name: Str(), role: Str(), speakingStyle: Str(), culturalIdentity: Str(), coreValues: Arr(Str()) },
  { $id: 'PersonaIdentity' },
);
export const ReflectionSettings = closed(
  { vadDeltaThreshold: Num(), predictionErrorThreshold: Num(), turnFallback: Num() },
  { $id: 'ReflectionSettings' },
);
export const PersonaConfig = open(
  {
    personality: ref(Personality), identity: ref(PersonaIdentity), goals: Arr(ref(Goal)),
    type: Seen('persona'), reflection: ref(ReflectionSettings),
  },
  { $id: 'PersonaConfig' },
);

const RegulationStrategyWeights = closed({
  situation_selection: Num(), situation_modification: Num(), attentional_deployment: Num(),
  cognitive_reappraisal: Num(), response_modulation: Num(),
});
export const SoulStage = closed(
  {
    id: Num(), name: Str(), tolerance: Num(), stress_modifier: Num(), appraisal_bias: ref(Appraisal),
    avoidance_mod: Num(), blend_table: closed({ rational: Num(), irrational: Num() }),
    cumulative_load: Num(), turns_in_stage: Num(),
  },
  { $id: 'SoulStage' },
);
export const PersonaState = closed(
  {
    emotion: ref(VAD),
    velocity: ref(VAD),
    emotion_history: Arr(closed({ V: Num(), A: Num(), D: Num(), timestamp: Num() })),
    body_budget: Num(),
    soul_stage: ref(SoulStage),
    prediction_model: ref(Appraisal),
    prev_emotion_delta: ref(VAD),
    need_state: ref(NeedState),
    lastUpdated: Num(),
    catastrophe: closed({ alpha: Num(), beta: Num(), z: Num(), hysteresis_bound: Num() }),
    metacog: closed({
      turns_since_check: Num(),
      regulation_history: Arr(closed({
        timestamp: Num(), strategy: Str(), trigger: Str(), effectiveness: Num(),
        emotionBefore: ref(VAD), emotionAfter: ref(VAD),
      })),
      self_awareness: Str(),
    }),
    affect_dynamics: closed({ variability: Num(), instability: Num(), inertia_observed: Num() }),
    interpersonal: closed({ dominance: Num(), affiliation: Num() }),
    regulation: closed({
      strategy_weights: RegulationStrategyWeights,
      effectiveness_history: Arr(closed({ timestamp: Num(), strategy: Str(), effectiveness: Num(), context: Str() })),
      // Absent while no strategy is active.
      active_strategy: Opt(closed({
        strategy: Str(), started_at: Num(), target_emotion: ref(VAD), progress: Num(),
        phase: Seen('initiation'), turns_active: Num(), cumulative_effect: Num(),
      })),
    }),
    prevMaskIntegrity: Num(),
  },
  { $id: 'PersonaState' },
);
export const MoodHistoryEntry = closed({ emotion: ref(VAD), intensity: Num() }, { $id: 'MoodHistoryEntry' });
export const SelfEsteem = closed({ global: Num(), contingencies: map(Num()) }, { $id: 'SelfEsteem' });
export const PersonaSnapshot = open(
  {
    state: ref(PersonaState),
    relationships: map(ref(PersonaRelationship)),
    goals: Arr(ref(Goal)),
    selfConcept: Str(),
    mood: ref(VAD),
    moodHistory: Arr(ref(MoodHistoryEntry)),
    somatic: closed({
      regions: closed({ head: Num(), neck: Num(), chest: Num(), stomach: Num(), upperBack: Num(), hands: Num(), legs: Num() }),
      interoception: Num(),
    }),
    narrative: closed({
      tone: Num(),
      coherence: closed({ temporal: Num(), causal: Num(), thematic: Num() }),
      agency: Num(),
      communion: Num(),
      arcs: Arr(closed({ id: Str(), type: Seen('decline'), strength: Num(), episodeIds: Arr(Str()), theme: Str() })),
    }),
    tmt: closed({
      mortalitySalience: Num(), deathAnxiety: Num(), proximity: Seen('immediate'), proximalDefense: Bool(),
      distalDefense: Bool(), defenseTarget: Seen('in_group'), defenseStrength: Num(), lastReminderTime: Num(),
    }),
    selfEsteem: ref(SelfEsteem),
    motivationContexts: map(closed({ autonomy: Num(), locus: Seen('internal'), freedomThreat: Num(), controlSource: Str() })),
    maskIntegrity: Num(),
    maskState: Str(),
    lastReflectionVAD: ref(VAD),
  },
  { $id: 'PersonaSnapshot', description: 'The persona snapshot held by a world entity (personaSnapshot).' },
);

/** GET /personas/{id}/snapshot: SPEC.md lists a looser shape (several members are open objects). */
export const StandalonePersonaSnapshot = open(
  {
    state: open({}), relationships: open({}), goals: Arr(ref(Goal)), selfConcept: Str(), mood: ref(VAD),
    moodHistory: Arr(ref(MoodHistoryEntry)), somatic: open({}), narrative: open({}), tmt: open({}),
    selfEsteem: ref(SelfEsteem), motivationContexts: open({}), maskIntegrity: Num(), maskState: Str(),
  },
  { $id: 'StandalonePersonaSnapshot' },
);
export const StandalonePersonaState = open(
  {
    emotion: closed({ vad: ref(VAD), discrete: ref(DiscreteEmotion) }),
    mood: closed({ vad: ref(VAD) }),
    somatic: Arr(Str()),
    narrative: closed({ tone: Num(), agency: Num(), coherence: Num() }),
  },
  { $id: 'StandalonePersonaState' },
);

// ---- World snapshot and context ----
export const WorldSnapshotEntity = closed(
  {
    id: Str(), type: Seen('user', 'persona'), name: Str(), spaceId: Str(), profile: ref(EntityProfile),
    // Only entities of type persona carry a persona snapshot.
    personaSnapshot: Opt(ref(PersonaSnapshot)),
    relationships: Arr(closed({ targetId: Str(), relationship: ref(WorldRelationship) })),
  },
  { $id: 'WorldSnapshotEntity' },
);
export const WorldSnapshot = open(
  {
    id: Str(), definition: ref(WorldDefinition), entities: Arr(ref(WorldSnapshotEntity)), spaces: Arr(ref(Space)),
    environment: ref(Environment), createdAt: Num(), knowledge: closed({ facts: Arr(ref(Fact)), defaultVisibility: Str() }),
    progression: ref(ProgressionState), recentEvents: Arr(ref(Event)), interaction: ref(InteractionSettings),
  },
  { $id: 'WorldSnapshot' },
);
export const ContextPersonaState = closed(
  {
    emotion: closed({ vad: ref(VAD), discrete: ref(DiscreteEmotion) }),
    soulStage: closed({
      id: Num(), name: Str(), blendTable: closed({ rational: Num(), irrational: Num() }), turnsInStage: Num(),
    }),
    mask: closed({ integrity: Num(), state: Str() }),
    mood: ref(VAD),
    somatic: map(Num()),
    narrative: closed({ tone: Num(), agency: Num(), coherence: Num() }),
    regulation: closed({ activeStrategy: Str() }),
    selfEsteem: closed({ global: Num() }),
    tmt: closed({ mortalitySalience: Num(), deathAnxiety: Num(), defenseMode: Seen('proximal') }),
    relationship: closed({ trust: Num(), intimacy: Num(), attachmentStyle: Str() }),
  },
  { $id: 'ContextPersonaState' },
);
export const WorldContext = open(
  {
    whoAmI: ref(Entity), whereAmI: ref(Space), whoIsHere: Arr(ref(Entity)), whatHappened: Arr(ref(Event)),
    adjacentSpaces: Arr(Str()), worldIdentity: ref(WorldIdentity), worldCulture: ref(WorldCulture),
    knownFacts: Arr(ref(Fact)), currentPhase: Str(),
    // Only for an entity of type persona.
    personaState: Opt(ref(ContextPersonaState)),
  },
  { $id: 'WorldContext' },
);

// ---- Errors ----
export const ErrorEnvelope = closed(
  { error: closed({ code: Str(), message: Str() }) },
  { $id: 'ErrorEnvelope', description: 'Every error response.' },
);

export type VAD = Static<typeof VAD>;
export type Appraisal = Static<typeof Appraisal>;
export type NeedState = Static<typeof NeedState>;
export type DiscreteEmotion = Static<typeof DiscreteEmotion>;
export type WorldDefinition = Static<typeof WorldDefinition>;
export type World = Static<typeof World>;
export type Entity = Static<typeof Entity>;
export type Space = Static<typeof Space>;
export type Fact = Static<typeof Fact>;
export type Trigger = Static<typeof Trigger>;
export type Phase = Static<typeof Phase>;
export type WorldRelationship = Static<typeof WorldRelationship>;
export type PersonaRelationship = Static<typeof PersonaRelationship>;
export type ProgressionState = Static<typeof ProgressionState>;
export type Environment = Static<typeof Environment>;
export type InteractionSettings = Static<typeof InteractionSettings>;
export type Event = Static<typeof Event>;
export type PendingEvent = Static<typeof PendingEvent>;
export type Stimulus = Static<typeof Stimulus>;
export type EntityResponse = Static<typeof EntityResponse>;
export type AffectedItem = Static<typeof AffectedItem>;
export type Goal = Static<typeof Goal>;
export type PersonaConfig = Static<typeof PersonaConfig>;
export type PersonaState = Static<typeof PersonaState>;
export type PersonaSnapshot = Static<typeof PersonaSnapshot>;
export type StandalonePersonaSnapshot = Static<typeof StandalonePersonaSnapshot>;
export type StandalonePersonaState = Static<typeof StandalonePersonaState>;
export type WorldSnapshotEntity = Static<typeof WorldSnapshotEntity>;
export type WorldSnapshot = Static<typeof WorldSnapshot>;
export type WorldContext = Static<typeof WorldContext>;
export type ContextPersonaState = Static<typeof ContextPersonaState>;

/** Every named resource, in the order the OpenAPI components list them. */
export const RESOURCES = [
  VAD, Appraisal, NeedState, DiscreteEmotion, Fact, Phase, Trigger, TopologyConnection, WorldIdentity, WorldRules,
  WorldCulture, WorldDefinition, World, EntityProfile, Entity, Space, WorldRelationship, PersonaRelationship,
  PhaseHistoryEntry, ProgressionState, Environment, InteractionSettings, Stimulus, Event, PendingEvent, SocialUpdate,
  MemoryEpisode, EntityResponse, AffectedItem, Goal, Personality, PersonaIdentity, ReflectionSettings, PersonaConfig,
  SoulStage, PersonaState, MoodHistoryEntry, SelfEsteem, PersonaSnapshot, StandalonePersonaSnapshot,
  StandalonePersonaState, WorldSnapshotEntity, WorldSnapshot, ContextPersonaState, WorldContext, ErrorEnvelope,
] as const;
