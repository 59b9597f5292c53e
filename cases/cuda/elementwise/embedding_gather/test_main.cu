// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: out[t][c] = table[ids[t]][c]; table is vocab x dim, out is
// tokens x dim, both row-major; 0 <= ids[t] < vocab. Device pointers.
void launch_embedding_gather(const float* table, const int* ids, float* out, int tokens, int vocab, int dim);

int main()
{
    const int vocab = 50000, dim = HWR_SIZE(256, 40), tokens = HWR_SIZE(32768, 300);
    std::vector<float> table = hwr_uniform((size_t)vocab * dim, 31, -1.0f, 1.0f);
    std::vector<int> ids(tokens);
    HwrRng rng(32);
    for (int& id : ids) id = rng.integer(0, vocab - 1);
    ids[0] = vocab - 1;
    std::vector<float> want((size_t)tokens * dim);
    for (int t = 0; t < tokens; ++t)
        for (int c = 0; c < dim; ++c) want[(size_t)t * dim + c] = table[(size_t)ids[t] * dim + c];

    HwrBuffer<float> dtable(table), dout(want.size());
    HwrBuffer<int> dids(ids);
    float ms = hwr_time_ms([&] { launch_embedding_gather(dtable.ptr, dids.ptr, dout.ptr, tokens, vocab, dim); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 0.0, 0.0), ms);
}

#include "solution.cu"
