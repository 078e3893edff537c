/* The C ABI from C: run a command list on the front-end model, print every register-write
 * beat (from the typed struct and from the packed words, which must agree), the outcome, a
 * pushed masked write, and the error paths. capi/tests/c_api.rs compiles this against
 * include/pica_model.h and libpica_capi.a and compares the output with the Rust model. */
#include "pica_model.h"

#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    pica_status_t s_ = (call);                                                   \
    if (s_ < 0) {                                                                \
      fprintf(stderr, "%s: %s: %s\n", #call, pica_status_name(s_), pica_last_error()); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

static int expect(pica_status_t got, pica_status_t want, const char *what) {
  if (got != want) {
    fprintf(stderr, "%s: got %s, want %s\n", what, pica_status_name(got), pica_status_name(want));
    return 1;
  }
  printf("error %s: %s\n", pica_status_name(got), got < 0 ? pica_last_error() : "");
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: smoke LIST.hex\n");
    return 2;
  }
  if (pica_abi_version() != PICA_ABI_VERSION) return 1;
  pica_gpu_t *gpu = NULL;
  uint32_t bytes = 0;
  CHECK(pica_gpu_new(PICA_GPU_FRONT_END, &gpu));
  CHECK(pica_load_file(gpu, argv[1], 0x20000000u, &bytes));
  CHECK(pica_gpu_submit(gpu, 0x20000000u, bytes));
  CHECK(pica_gpu_run(gpu, 1000000));
  uint32_t kind = 0, code = 0;
  uint64_t cycle = 0, waiting = 0;
  CHECK(pica_gpu_outcome(gpu, &kind, &cycle, &code));
  printf("outcome %u %llu %u: %s\n", kind, (unsigned long long)cycle, code,
         pica_gpu_outcome_message(gpu));
  CHECK(pica_beat_count(gpu, PICA_CH_REGWRITE, &waiting));
  printf("beats %llu\n", (unsigned long long)waiting);
  size_t size = 0;
  uint32_t bits = 0;
  CHECK(pica_beat_size(PICA_CH_REGWRITE, &size, &bits));
  if (size != sizeof(pica_reg_write_beat_t) || bits != PICA_REG_WRITE_BEAT_W) return 1;
  /* Every other beat is popped packed: both forms must name the same write. */
  for (unsigned i = 0;; i++) {
    pica_reg_write_beat_t b;
    if (i % 2 == 0) {
      pica_status_t s = pica_pop_beat(gpu, PICA_CH_REGWRITE, &b, sizeof b);
      CHECK(s);
      if (s == PICA_EMPTY) break;
    } else {
      uint32_t w[PICA_BEAT_MAX_W / 32];
      pica_status_t s = pica_pop_beat_packed(gpu, PICA_CH_REGWRITE, w, PICA_BEAT_MAX_W / 32);
      CHECK(s);
      if (s == PICA_EMPTY) break;
      /* Packing (pica_chan_pkg::reg_write_beat_t, 128 bits): cycle[127:96] pad[95:85]
       * mask[84:81] id[80:64] param[63:32] value[31:0]. */
      b.value = w[0];
      b.param = w[1];
      b.id = w[2] & 0x1FFFF;
      b.mask = (uint8_t)((w[2] >> 17) & 0xF);
      b.cycle = w[3];
    }
    printf("beat %llu %s 0x%03x mask %x param %08x value %08x\n", (unsigned long long)b.cycle,
           pica_reg_name(b.id), b.id, b.mask, b.param, b.value);
  }
  /* A pushed masked write on a fresh GPU: bytes 0 and 2 of GPUREG_FOG_COLOR. */
  pica_gpu_t *g2 = NULL;
  uint32_t id = 0, v = 0;
  CHECK(pica_gpu_new(PICA_GPU_FRONT_END, &g2));
  CHECK(pica_reg_by_name("GPUREG_FOG_COLOR", &id));
  pica_reg_write_t ws[2] = {{id, 0x11223344u, 0xF}, {id, 0xAABBCCDDu, 0x5}};
  size_t done = 0;
  CHECK(pica_gpu_write_regs(g2, ws, 2, &done));
  CHECK(pica_gpu_run(g2, 1000));
  CHECK(pica_gpu_read_reg(g2, id, &v));
  printf("pushed %zu %s = %08x: %s\n", done, pica_reg_name(id), v, pica_gpu_outcome_message(g2));
  /* Error paths: each gets its code and a message. */
  uint32_t word = 0;
  int bad = 0;
  bad |= expect(pica_mem_read_word(gpu, 0, &word), PICA_ERR_UNMAPPED, "unmapped");
  bad |= expect(pica_pop_beat(gpu, 99, &word, 4), PICA_ERR_CHANNEL, "channel");
  bad |= expect(pica_pop_beat(gpu, PICA_CH_REGWRITE, &word, 4), PICA_ERR_SIZE, "size");
  bad |= expect(pica_gpu_run(NULL, 1), PICA_ERR_NULL, "null");
  bad |= expect(pica_gpu_write_reg(g2, id, 0, 0x10), PICA_ERR_ARGUMENT, "mask");
  bad |= expect(pica_load_file(g2, "/nonexistent.hex", 0x20000000u, NULL), PICA_ERR_FILE, "file");
  bad |= expect(pica_channel_by_name("nope", &word), PICA_ERR_CHANNEL, "channel name");
  CHECK(pica_gpu_free(g2));
  CHECK(pica_gpu_free(gpu));
  CHECK(pica_gpu_free(NULL));
  return bad;
}
