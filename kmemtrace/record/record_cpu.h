/*
 * record_cpu.h: one reader per CPU, copying the ring buffer's pages from
 * the instance's trace_pipe_raw into the recording as the kernel hands them
 * out.
 */
#ifndef RECORD_CPU_H
#define RECORD_CPU_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct cpu_reader {
	int		 cpu;
	int		 raw;		/* per_cpu/cpuN/trace_pipe_raw */
	int		 out;		/* cpuN.raw in the recording */
	int		 stop;		/* readable: drain what is left, end */
	int		 pipe[2];	/* splice: raw -> pipe -> out */
	size_t		 pipe_size;
	size_t		 page_size;	/* the ring buffer's sub-buffer */
	bool		 no_splice;	/* the output refused splice */
	pthread_t	 thread;
	bool		 started;
	uint64_t	 written_back;	/* bytes handed to the disk */
	/* Results, read after the thread is joined. */
	uint64_t	 bytes;
	int		 error;		/* errno of the failure, or 0 */
	const char	*failed;	/* what failed */
};

/*
 * Starts the reader; on its failure it sets r->error and raises
 * SIGUSR1 in the process, which the recorder waits for.
 */
int	cpu_reader_start(struct cpu_reader *r);
/* Waits for the reader; after the stop descriptor was made readable. */
void	cpu_reader_join(struct cpu_reader *r);

#endif /* !RECORD_CPU_H */
