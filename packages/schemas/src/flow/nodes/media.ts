import { z } from 'zod';
import { anyValue, choice, defineNode, namedOptions, num, options, text } from '../fields';

const DALLE2_SIZES = ['256x256', '512x512', '1024x1024'] as const;
export const dalle2Node = defineNode({
  type: 'dalle2',
  label: 'nodeCatalog.nodes.dalle2.label',
  category: 'media',
  description: 'nodeCatalog.nodes.dalle2.description',
  fields: z
    .object({ prompt: text(), modelId: text(), size: choice(DALLE2_SIZES, '1024x1024'), n: num(1, 1, 10) })
    .prefault({}),
  fieldMeta: [
    {
      name: 'modelId',
      label: 'nodeCatalog.fields.modelId',
      kind: 'model',
      modelType: 'text-to-image',
      required: true,
    },
    { name: 'prompt', label: 'nodeCatalog.fields.prompt', kind: 'textarea', required: true },
    {
      name: 'size',
      label: 'nodeCatalog.fields.size',
      kind: 'select',
      required: false,
      options: options(...DALLE2_SIZES),
    },
    { name: 'n', label: 'nodeCatalog.fields.n', kind: 'number', required: false, min: 1, max: 10 },
  ],
  outputs: ['image', 'images'],
});

const DALLE3_SIZES = ['1024x1024', '1792x1024', '1024x1792'] as const;
export const dalle3Node = defineNode({
  type: 'dalle3',
  label: 'nodeCatalog.nodes.dalle3.label',
  category: 'media',
  description: 'nodeCatalog.nodes.dalle3.description',
  fields: z
    .object({
      prompt: text(),
      modelId: text(),
      quality: choice(['standard', 'hd'], 'standard'),
      size: choice(DALLE3_SIZES, '1024x1024'),
      style: choice(['vivid', 'natural'], 'vivid'),
    })
    .prefault({}),
  fieldMeta: [
    {
      name: 'modelId',
      label: 'nodeCatalog.fields.modelId',
      kind: 'model',
      modelType: 'text-to-image',
      required: true,
    },
    { name: 'prompt', label: 'nodeCatalog.fields.prompt', kind: 'textarea', required: true },
    {
      name: 'quality',
      label: 'nodeCatalog.fields.quality',
      kind: 'select',
      required: false,
      options: namedOptions('quality', 'standard', 'hd'),
    },
    {
      name: 'size',
      label: 'nodeCatalog.fields.size',
      kind: 'select',
      required: false,
      options: options(...DALLE3_SIZES),
    },
    {
      name: 'style',
      label: 'nodeCatalog.fields.style',
      kind: 'select',
      required: false,
      options: namedOptions('style', 'vivid', 'natural'),
    },
  ],
  outputs: ['image', 'images', 'revised_prompt'],
});

const VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
] as const;
const AUDIO_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export const textToSpeechNode = defineNode({
  type: 'text_to_speech',
  label: 'nodeCatalog.nodes.text_to_speech.label',
  category: 'media',
  description: 'nodeCatalog.nodes.text_to_speech.description',
  fields: z
    .object({
      input: text(),
      modelId: text(),
      voice: choice(VOICES, 'alloy'),
      response_format: choice(AUDIO_FORMATS, 'mp3'),
      speed: num(1, 0.25, 4),
    })
    .prefault({}),
  fieldMeta: [
    {
      name: 'modelId',
      label: 'nodeCatalog.fields.modelId',
      kind: 'model',
      modelType: 'text-to-speech',
      required: true,
    },
    { name: 'input', label: 'nodeCatalog.fields.input', kind: 'textarea', required: true },
    {
      name: 'voice',
      label: 'nodeCatalog.fields.voice',
      kind: 'select',
      required: false,
      options: options(...VOICES),
    },
    {
      name: 'response_format',
      label: 'nodeCatalog.fields.responseFormat',
      kind: 'select',
      required: false,
      options: options(...AUDIO_FORMATS),
    },
    { name: 'speed', label: 'nodeCatalog.fields.speed', kind: 'number', required: false, min: 0.25, max: 4 },
  ],
  outputs: ['audio'],
});

export const speechToTextNode = defineNode({
  type: 'speech_to_text',
  label: 'nodeCatalog.nodes.speech_to_text.label',
  category: 'media',
  description: 'nodeCatalog.nodes.speech_to_text.description',
  fields: z
    .object({ modelId: text(), file: anyValue(), language: text(), temperature: num(0, 0, 1) })
    .prefault({}),
  fieldMeta: [
    {
      name: 'modelId',
      label: 'nodeCatalog.fields.modelId',
      kind: 'model',
      modelType: 'speech-to-text',
      required: true,
    },
    {
      name: 'file',
      label: 'nodeCatalog.fields.file',
      kind: 'text',
      required: true,
      help: 'nodeCatalog.help.file',
    },
    {
      name: 'language',
      label: 'nodeCatalog.fields.language',
      kind: 'text',
      required: false,
      placeholder: 'en',
      help: 'nodeCatalog.help.language',
    },
    {
      name: 'temperature',
      label: 'nodeCatalog.fields.temperature',
      kind: 'number',
      required: false,
      min: 0,
      max: 1,
    },
  ],
  outputs: ['text'],
});

export const ocrNode = defineNode({
  type: 'ocr',
  label: 'nodeCatalog.nodes.ocr.label',
  category: 'media',
  description: 'nodeCatalog.nodes.ocr.description',
  fields: z.object({ modelId: text(), file: anyValue() }).prefault({}),
  fieldMeta: [
    { name: 'modelId', label: 'nodeCatalog.fields.modelId', kind: 'model', modelType: 'ocr', required: true },
    {
      name: 'file',
      label: 'nodeCatalog.fields.file_ocr',
      kind: 'text',
      required: true,
      help: 'nodeCatalog.help.file_ocr',
    },
  ],
  outputs: ['text'],
});

const VIDEO_SIZES = ['1280x720', '720x1280', '1792x1024', '1024x1792'] as const;
const VIDEO_SECONDS = ['4', '8', '12'] as const;
export const soraVideoNode = defineNode({
  type: 'sora_video',
  label: 'nodeCatalog.nodes.sora_video.label',
  category: 'media',
  description: 'nodeCatalog.nodes.sora_video.description',
  fields: z
    .object({
      prompt: text(),
      modelId: text(),
      seconds: choice(VIDEO_SECONDS, '4'),
      size: choice(VIDEO_SIZES, '1280x720'),
    })
    .prefault({}),
  fieldMeta: [
    {
      name: 'modelId',
      label: 'nodeCatalog.fields.modelId',
      kind: 'model',
      modelType: 'text-to-video',
      required: true,
    },
    { name: 'prompt', label: 'nodeCatalog.fields.prompt', kind: 'textarea', required: true },
    {
      name: 'seconds',
      label: 'nodeCatalog.fields.seconds',
      kind: 'select',
      required: false,
      options: options(...VIDEO_SECONDS),
    },
    {
      name: 'size',
      label: 'nodeCatalog.fields.size',
      kind: 'select',
      required: false,
      options: options(...VIDEO_SIZES),
    },
  ],
  outputs: ['video'],
});
