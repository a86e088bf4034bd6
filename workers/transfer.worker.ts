import * as Comlink from 'comlink';
import { TransferEngine } from './engine/engine';

Comlink.expose(new TransferEngine());
