// Kimi Code's recordings replayed through hookrt (see replay-run.mjs).
import { replayKit } from './replay-run.mjs'

replayKit('kimi')
