import { z } from 'zod';
import { anyValue, choice, defineNode, num, options, text } from '../fields';

const DALLE2_SIZES = ['256x256', '512x512', '1024x1024'] as const;
export const dalle2Node = defineNode({
  type: 'dalle2',
  label: 'DALL·E 2',
  category: 'media',
  description: 'Generates images from a prompt with DALL·E 2.',
  fields: z
    .object({ prompt: text(), modelId: text(), size: choice(DALLE2_SIZES, '1024x1024'), n: num(1, 1, 10) })
    .prefault({}),
  fieldMeta: [
    { name: 'modelId', label: 'Model', kind: 'model', modelType: 'text-to-image', required: true },
    { name: 'prompt', label: 'Prompt', kind: 'textarea', required: true },
    { name: 'size', label: 'Size', kind: 'select', required: false, options: options(...DALLE2_SIZES) },
    { name: 'n', label: 'Number of images', kind: 'number', required: false, min: 1, max: 10 },
  ],
  outputs: ['image', 'images'],
});

const DALLE3_SIZES = ['1024x1024', '1792x1024', '1024x1792'] as const;
export const dalle3Node = defineNode({
  type: 'dalle3',
  label: 'DALL·E 3',
  category: 'media',
  description: 'Generates an image from a prompt with DALL·E 3.',
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
    { name: 'modelId', label: 'Model', kind: 'model', modelType: 'text-to-image', required: true },
    { name: 'prompt', label: 'Prompt', kind: 'textarea', required: true },
    {
      name: 'quality',
      label: 'Quality',
      kind: 'select',
      required: false,
      options: options('standard', 'hd'),
    },
    { name: 'size', label: 'Size', kind: 'select', required: false, options: options(...DALLE3_SIZES) },
    { name: 'style', label: 'Style', kind: 'select', required: false, options: options('vivid', 'natural') },
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
  label: 'Text to speech (OpenAI)',
  category: 'media',
  description: 'Reads a text aloud and gives the audio file.',
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
    { name: 'modelId', label: 'Model', kind: 'model', modelType: 'text-to-speech', required: true },
    { name: 'input', label: 'Text', kind: 'textarea', required: true },
    { name: 'voice', label: 'Voice', kind: 'select', required: false, options: options(...VOICES) },
    {
      name: 'response_format',
      label: 'Format',
      kind: 'select',
      required: false,
      options: options(...AUDIO_FORMATS),
    },
    { name: 'speed', label: 'Speed', kind: 'number', required: false, min: 0.25, max: 4 },
  ],
  outputs: ['audio'],
});

export const speechToTextNode = defineNode({
  type: 'speech_to_text',
  label: 'Speech to text (OpenAI)',
  category: 'media',
  description: 'Transcribes an audio file.',
  fields: z
    .object({ modelId: text(), file: anyValue(), language: text(), temperature: num(0, 0, 1) })
    .prefault({}),
  fieldMeta: [
    { name: 'modelId', label: 'Model', kind: 'model', modelType: 'speech-to-text', required: true },
    {
      name: 'file',
      label: 'Audio file',
      kind: 'text',
      required: true,
      help: 'A reference to an audio input.',
    },
    {
      name: 'language',
      label: 'Language',
      kind: 'text',
      required: false,
      placeholder: 'en',
      help: 'ISO-639-1 code; empty lets the model detect it.',
    },
    { name: 'temperature', label: 'Temperature', kind: 'number', required: false, min: 0, max: 1 },
  ],
  outputs: ['text'],
});

export const ocrNode = defineNode({
  type: 'ocr',
  label: 'OCR',
  category: 'media',
  description: 'Reads the text of an image or a PDF document.',
  fields: z.object({ modelId: text(), file: anyValue() }).prefault({}),
  fieldMeta: [
    { name: 'modelId', label: 'Model', kind: 'model', modelType: 'ocr', required: true },
    {
      name: 'file',
      label: 'Image or document',
      kind: 'text',
      required: true,
      help: 'A reference to an image or pdf input, a data: URL or an http(s) URL.',
    },
  ],
  outputs: ['text'],
});

const VIDEO_SIZES = ['1280x720', '720x1280', '1792x1024', '1024x1792'] as const;
const VIDEO_SECONDS = ['4', '8', '12'] as const;
export const soraVideoNode = defineNode({
  type: 'sora_video',
  label: 'Sora video',
  category: 'media',
  description: 'Generates a short video from a prompt.',
  fields: z
    .object({
      prompt: text(),
      modelId: text(),
      seconds: choice(VIDEO_SECONDS, '4'),
      size: choice(VIDEO_SIZES, '1280x720'),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'modelId', label: 'Model', kind: 'model', modelType: 'text-to-video', required: true },
    { name: 'prompt', label: 'Prompt', kind: 'textarea', required: true },
    {
      name: 'seconds',
      label: 'Duration (s)',
      kind: 'select',
      required: false,
      options: options(...VIDEO_SECONDS),
    },
    { name: 'size', label: 'Size', kind: 'select', required: false, options: options(...VIDEO_SIZES) },
  ],
  outputs: ['video'],
});
