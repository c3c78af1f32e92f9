import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCollection, queueDocument, settled, startEnv, type Env } from './ingest-env';

/*
 * Retrieval quality on a small labelled set: 25 passages on distinct topics, each uploaded as its own
 * document, and 15 questions worded differently from their passage (sharing some of its words, as the
 * fake provider's bag-of-words embeddings only see words). recall@5 is printed and held above a floor.
 */

const PASSAGES: Record<string, string> = {
  volcano:
    'Volcanoes form where magma from the mantle rises through the crust. Eruptions release lava, ash and gases such as sulfur dioxide.',
  photosynthesis:
    'Photosynthesis lets plants turn sunlight, water and carbon dioxide into glucose and oxygen inside their chloroplasts.',
  bread:
    'To bake sourdough bread, feed the starter, mix flour and water, let the dough rise overnight and bake it in a hot oven.',
  chess:
    'In chess the knight moves in an L shape, the bishop moves diagonally and castling protects the king early in the game.',
  tides:
    'Ocean tides are caused by the gravitational pull of the moon and the sun on the seas, giving two high tides a day.',
  vaccine:
    'A vaccine trains the immune system to recognise a pathogen so that antibodies are ready before a real infection.',
  bitcoin:
    'Bitcoin is a cryptocurrency whose ledger, the blockchain, is secured by miners solving proof of work puzzles.',
  coffee:
    'Espresso coffee is brewed by forcing hot water at high pressure through finely ground beans for about 25 seconds.',
  marathon:
    'Marathon runners train with long slow runs, interval sessions and tapering before racing 42 kilometres.',
  jupiter:
    'Jupiter is the largest planet of the solar system, a gas giant with a great red spot storm and dozens of moons.',
  honeybees:
    'Honeybees live in colonies with one queen; worker bees collect nectar and pollen and dance to share where flowers are.',
  tcp: 'TCP opens a connection with a three way handshake and retransmits lost packets so that data arrives in order.',
  tax: 'Income tax returns must be filed by the deadline; deductions for pensions and donations reduce taxable income.',
  guitar:
    'Tuning a guitar in standard tuning sets the six strings to E A D G B E, usually with an electronic tuner.',
  roman:
    'The Roman Empire built roads, aqueducts and the Colosseum; its western half fell in 476 when Odoacer deposed the emperor.',
  recycling:
    'Recycling sorts glass, paper, metal and plastic so that the materials can be processed into new products.',
  sleep:
    'Adults need seven to nine hours of sleep; deep sleep and REM phases help memory and physical recovery.',
  python:
    'Python lists are ordered and mutable; dictionaries map keys to values and comprehensions build them concisely.',
  solar:
    'Solar panels convert sunlight into electricity with photovoltaic cells; an inverter turns direct current into alternating current.',
  wine: 'Red wine is fermented with grape skins, which give colour and tannins; white wine is fermented from juice alone.',
  earthquake:
    'Earthquakes happen when tectonic plates slip along a fault; their magnitude is measured on the moment magnitude scale.',
  piano:
    'A piano has 88 keys; pressing a key makes a felt hammer strike strings, and the sustain pedal lifts the dampers.',
  diabetes:
    'Diabetes is a condition where blood sugar stays high because the body makes too little insulin or resists it.',
  mortgage:
    'A mortgage is a loan to buy a house, repaid monthly with interest over a term such as twenty five years.',
  glacier:
    'Glaciers are slow rivers of ice that carve valleys; melting glaciers raise sea levels as the climate warms.',
};

const QUESTIONS: [string, string][] = [
  ['What comes out of a volcano when magma erupts?', 'volcano'],
  ['How do plants make glucose from sunlight?', 'photosynthesis'],
  ['How long should sourdough dough rise before baking?', 'bread'],
  ['How does the knight move in chess?', 'chess'],
  ['Why are there two high tides each day?', 'tides'],
  ['How does a vaccine prepare the immune system?', 'vaccine'],
  ['What do bitcoin miners do for the blockchain?', 'bitcoin'],
  ['At what pressure is espresso brewed?', 'coffee'],
  ['How do runners train for a marathon?', 'marathon'],
  ['Which planet is the largest gas giant?', 'jupiter'],
  ['Why do worker bees dance?', 'honeybees'],
  ['What does the TCP handshake do with lost packets?', 'tcp'],
  ['Which strings does standard guitar tuning use?', 'guitar'],
  ['When did the western Roman Empire fall?', 'roman'],
  ['What does an inverter do for solar panels?', 'solar'],
];

let env: Env;
beforeAll(async () => {
  env = await startEnv('Quality test org');
  env.knowledge.startIngestionWorker({ concurrency: 2 });
});
afterAll(async () => {
  await env?.close();
});

describe('retrieval quality', () => {
  it('finds the expected passage in the top 5 for most questions (recall@5)', async () => {
    const { id } = await addCollection(env, {
      chunkSize: 1000,
      chunkOverlap: 0,
      rerankModelId: env.models.rerank,
    });
    const ids: string[] = [];
    for (const [topic, text] of Object.entries(PASSAGES)) {
      ids.push(await queueDocument(env, id, `${topic}.txt`, { text }));
    }
    for (const docId of ids) expect(await settled(env, docId)).toMatchObject({ status: 'ready' });

    const recall = async (options: { hybrid?: boolean; rerank?: boolean }) => {
      let hits = 0;
      for (const [question, topic] of QUESTIONS) {
        const answer = await env.knowledge.query(env.scope, id, { query: question, top_k: 5, ...options });
        if (answer.documents.some((d) => d.source.filename === `${topic}.txt`)) hits += 1;
      }
      return hits / QUESTIONS.length;
    };
    const vector = await recall({ hybrid: false, rerank: false });
    const hybrid = await recall({ hybrid: true, rerank: false });
    const reranked = await recall({ hybrid: false, rerank: true });
    console.log(
      `recall@5 on ${QUESTIONS.length} questions over ${ids.length} passages: vector ${vector.toFixed(2)}, hybrid ${hybrid.toFixed(2)}, vector+rerank ${reranked.toFixed(2)}`,
    );
    expect(vector).toBeGreaterThanOrEqual(0.6);
    expect(hybrid).toBeGreaterThanOrEqual(0.6);
    expect(reranked).toBeGreaterThanOrEqual(0.6);
  });
});
