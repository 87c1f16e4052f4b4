import { accessMatrix } from './access-matrix';

// one share of the access matrix (./access-matrix.ts says why it is split)
accessMatrix(1);
