using System;
using System.Collections.Generic;
using System.Linq;
using CloneCopy.Benchmarks;

// Usage:
//   CloneCopy.Benchmarks per-file --fs xfs=/mnt/xfs --fs btrfs=/mnt/btrfs --fs ext4=/mnt/ext4
//   CloneCopy.Benchmarks per-task --fs xfs=/mnt/xfs --fs ext4=/mnt/ext4 [--files 2000] [--rounds 5]
//   CloneCopy.Benchmarks replace --fs xfs=/mnt/xfs --fs ext4=/mnt/ext4 [--files 2000] [--rounds 5]   # a rebuild replacing every destination: CloneCopyAtomicReplace's cost
//   CloneCopy.Benchmarks generate-repo --out DIR [--projects 50] [--clonecopy no]
//   CloneCopy.Benchmarks floor --from bin --to out [--pattern *.dll]   # the minimal clone loop, timed in this (fresh) process
//   CloneCopy.Benchmarks read-back --fs xfs=/mnt/xfs [--rounds 15]   # what the clone read-back costs
//   CloneCopy.Benchmarks look --dir DIR [--rounds 201]   # the once-per-build look for killed atomic replaces, beside a Copy of one up-to-date file
var command = args.FirstOrDefault() ?? "help";
var options = ParseOptions(args.Skip(1).ToArray());
var filesystems = options.Where(o => o.Key == "fs").Select(o => o.Value.Split('=', 2)).ToDictionary(p => p[0], p => p[1]);

switch (command)
{
    case "per-file":
        PerFileBenchmark.Run(filesystems, Console.Out);
        break;
    case "per-task":
        PerTaskBenchmark.Run(filesystems, Get("files", 2000), Get("rounds", 5), Console.Out);
        break;
    case "replace":
        ReplaceBenchmark.Run(filesystems, Get("files", 2000), Get("rounds", 5), Console.Out);
        break;
    case "generate-repo":
        RepositoryGenerator.Generate(options.Single(o => o.Key == "out").Value, Get("projects", 50), options.Where(o => o.Key == "feed").Select(o => o.Value).LastOrDefault() ?? string.Empty,
            useCloneCopy: options.Where(o => o.Key == "clonecopy").Select(o => o.Value).LastOrDefault() != "no");
        break;
    case "read-back":
        ReadBackBenchmark.Run(filesystems, Get("rounds", 15), Console.Out);
        break;
    case "look":
        LookBenchmark.Run(Value("dir"), Get("rounds", 201), Console.Out);
        break;
    case "floor":
        Console.WriteLine(MinimalCloneLoop.TimeFresh(Value("from"), Value("to"), options.Where(o => o.Key == "pattern").Select(o => o.Value).LastOrDefault() ?? "*").ToString("0.0", System.Globalization.CultureInfo.InvariantCulture));
        break;
    default:
        Console.Error.WriteLine("commands: per-file | per-task | replace | generate-repo | read-back | look | floor (see Program.cs)");
        return 2;
}

return 0;

string Value(string name) => options.Where(o => o.Key == name).Select(o => o.Value).Last();

int Get(string name, int fallback) => options.Where(o => o.Key == name).Select(o => int.Parse(o.Value, System.Globalization.CultureInfo.InvariantCulture)).DefaultIfEmpty(fallback).Last();

static List<KeyValuePair<string, string>> ParseOptions(string[] arguments)
{
    var list = new List<KeyValuePair<string, string>>();
    for (int i = 0; i + 1 < arguments.Length; i += 2)
    {
        list.Add(new(arguments[i].TrimStart('-'), arguments[i + 1]));
    }

    return list;
}
