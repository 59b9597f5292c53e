// Embedding lookup: out[t][:] = table[ids[t]][:] for every token t.
// table is row-major vocab x dim; one block copies one token's row.

__global__ void embedding_gather_kernel(const float* __restrict__ table, const int* __restrict__ ids,
                                        float* __restrict__ out, int tokens, int vocab, int dim)
{
    const int t = blockIdx.x;
    if (t >= tokens) return;
    const size_t src = (size_t)ids[t] * dim;
    const size_t dst = (size_t)t * dim;
    for (int c = threadIdx.x; c < dim; c += blockDim.x) {
        out[dst + c] = table[src + c];
    }
}

void launch_embedding_gather(const float* table, const int* ids, float* out, int tokens, int vocab, int dim)
{
    embedding_gather_kernel<<<tokens, 128>>>(table, ids, out, tokens, vocab, dim);
}
