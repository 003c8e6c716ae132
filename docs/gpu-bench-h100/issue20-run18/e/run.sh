#!/usr/bin/env bash
# Round 18, call e: csr-d16-rcm's three launches again with y gathered back (main at 17e9f6e, bin/c95), as round 17's call d
# measured them with y scattered: the time and DRAM bytes of each launch under Nsight Compute.
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c95/b.tgz -C bin/x
D=$OUT/c95e; mkdir -p $D
command -v ncu || { echo "no ncu"; exit 1; }
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_write.sum
prof() { # tag input precision
  [ $((SECONDS-T0)) -lt 170 ] || { echo "skip $1"; return; }
  timeout $((215 - (SECONDS-T0))) ncu --clock-control none --csv --page raw --print-units base --metrics $m -k 'regex:^spmv_(gather|scatter|csr_d16)' \
    --log-file $D/$1.ncu.csv bin/x/gpu/spac spmv "$2" --renumber random --gpu -b 1024 --precision $3 --kernels csr-d16-rcm \
    --iters 1 --warmup 0 --cpu-iters 1 --quiet --format csv > $D/$1.csv 2> $D/$1.err
  echo "ncu $1 rc=$? +$((SECONDS-T0))s"
}
prof m200-fp32 gen:stencil3d:nx=200,ny=200,nz=200 fp32
prof m200-fp64 gen:stencil3d:nx=200,ny=200,nz=200 fp64
prof m272-fp32 gen:stencil3d:nx=272,ny=272,nz=272 fp32
cd $OUT && tar -czf c95e.tgz c95e && rm -rf c95e
