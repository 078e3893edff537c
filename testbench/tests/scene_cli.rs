#![allow(clippy::unwrap_used)]
//! `pica scene list|render|render-all` and `pica run --png/--depth-png`.

mod common;
use common::{pica, stdout, text, tmp};
use std::path::Path;

/// Decodes a PNG: (width, height, RGBA bytes).
fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn rgba(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 4] {
    let i = ((y * img.0 + x) * 4) as usize;
    img.2[i..i + 4].try_into().unwrap()
}

#[test]
fn scene_list_names_every_area() {
    let o = pica(&["scene", "list"]);
    assert!(o.status.success(), "{}", text(&o));
    let s = stdout(&o);
    for name in [
        "prim/triangle",
        "prim/immediate",
        "cull/front_ccw",
        "depth/less",
        "stencil/ops",
        "blend/min",
        "logic/all_ops",
        "scissor/outside",
        "clip/near",
        "format/rgb565",
        "format/d24s8",
        "tile/block32_64",
        "bench/frame_400x240",
    ] {
        assert!(
            s.lines().any(|l| l.starts_with(name)),
            "{name} missing:\n{s}"
        );
    }
}

#[test]
fn scene_render_writes_png_depth_and_a_bundle_that_checks() {
    let png = tmp("tri.png");
    let depth = tmp("tri.depth.png");
    let dir = tmp("tri-bundle");
    let o = pica(&[
        "scene",
        "render",
        "prim/triangle",
        "--png",
        png.to_str().unwrap(),
        "--depth-png",
        depth.to_str().unwrap(),
        "--vectors",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(stdout(&o).contains("1 triangles"), "{}", text(&o));
    let img = decode(&png);
    assert_eq!((img.0, img.1), (32, 32));
    // The clear colour in a corner, the red-green-blue triangle's interior is not it.
    assert_ne!(rgba(&img, 16, 16), rgba(&img, 0, 0));
    let d = decode(&depth);
    assert_eq!((d.0, d.1), (32, 32));
    for f in [
        "primitive.hex",
        "fragment.jsonl",
        "pixel.hex",
        "manifest.json",
    ] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let o = pica(&["vectors", "check", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    // A tampered pixel stream is caught.
    let pix = dir.join("pixel.jsonl");
    let t = std::fs::read_to_string(&pix).unwrap();
    std::fs::write(&pix, t.replacen("\"flags\":", "\"flags\": ", 1)).unwrap();
    let o = pica(&["vectors", "check", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("pixel.jsonl"), "{}", text(&o));
}

#[test]
fn scene_render_unknown_name_is_bad_input() {
    let o = pica(&["scene", "render", "prim/nope", "--png", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("no scene named 'prim/nope'"),
        "{}",
        text(&o)
    );
}

/// `pica run --png` of a scene's own list and images draws what `pica scene render` draws.
#[test]
fn run_png_of_a_scene_list_matches_scene_render() {
    let scene = pica_vectors::scenes::scene("depth/less").unwrap();
    let mut args: Vec<String> = vec!["run".into()];
    let mut list = None;
    for (i, im) in scene.case.images.iter().enumerate() {
        let p = tmp(&format!("depth_less_{i}.hex"));
        let text: String = im.words.iter().map(|w| format!("{w:08x}\n")).collect();
        std::fs::write(&p, text).unwrap();
        if im.base == scene.case.submit_addr {
            list = Some(p);
        } else {
            args.push("--mem".into());
            args.push(format!("0x{:08x}={}", im.base, p.display()));
        }
    }
    let list = list.unwrap();
    let via_run = tmp("run.png");
    let via_run_depth = tmp("run.depth.png");
    args.splice(1..1, [list.display().to_string()]);
    args.extend([
        "--png".into(),
        via_run.display().to_string(),
        "--depth-png".into(),
        via_run_depth.display().to_string(),
    ]);
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = pica(&a);
    assert!(o.status.success(), "{}", text(&o));
    assert!(stdout(&o).contains("triangles"), "{}", text(&o));
    let via_scene = tmp("scene.png");
    let o = pica(&[
        "scene",
        "render",
        "depth/less",
        "--png",
        via_scene.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(decode(&via_run), decode(&via_scene));
    // Front end only: nothing is drawn, the buffers keep their clear values.
    let fe = tmp("fe.png");
    let mut a2 = a.clone();
    let n = a2.len();
    a2.truncate(n - 4);
    a2.extend(["--front-end", "--png", fe.to_str().unwrap()]);
    let o = pica(&a2);
    assert!(o.status.success(), "{}", text(&o));
    let img = decode(&fe);
    assert!(
        img.2.chunks(4).all(|p| p == &img.2[..4]),
        "front end drew pixels"
    );
}

#[test]
fn run_png_without_a_framebuffer_is_an_error_naming_the_file() {
    let out = tmp("none.png");
    let o = pica(&[
        "run",
        "vectors/examples/01_finalize.hex",
        "--png",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("none.png"), "{}", text(&o));
}
